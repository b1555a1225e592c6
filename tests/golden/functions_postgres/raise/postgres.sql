-- sqlnb_raise(message): raises an error with the message (a SQL function cannot). VOLATILE, so
-- that PostgreSQL never evaluates it while planning a branch that is not taken.
CREATE OR REPLACE FUNCTION "public".sqlnb_raise(message TEXT) RETURNS TEXT
LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $sqlnb$
BEGIN
  RAISE EXCEPTION '%', message;
END
$sqlnb$;
