-- sqlnb_proba(model, text) for arguments of another text type (BPCHAR, BPCHAR): the
-- (TEXT, TEXT) function on the same values. With one of these for every pair of text types,
-- a call on a VARCHAR or CHAR column finds its exact match in the models' schema, never a
-- better match another role put in a schema later on the search path (PostgreSQL prefers the
-- function whose argument types match most exactly). Safe as classify.sql.in says.
CREATE OR REPLACE FUNCTION "public".sqlnb_proba(sqlnb_model BPCHAR, sqlnb_text BPCHAR)
RETURNS DOUBLE PRECISION
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $sqlnb$
SELECT "public".sqlnb_proba(CAST(sqlnb_model AS pg_catalog.text), CAST(sqlnb_text AS pg_catalog.text))
$sqlnb$;
