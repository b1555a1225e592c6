-- sqlnb_predict(model, tokens_table): sqlnb_predict(model, tokens_table, NULL::text), the
-- document ids as text (give a third argument, NULL::bigint say, for ids of that type).
CREATE OR REPLACE FUNCTION "public".sqlnb_predict(sqlnb_model TEXT, sqlnb_tokens TEXT)
RETURNS TABLE (doc_id TEXT, label TEXT, proba DOUBLE PRECISION)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $sqlnb$
SELECT p.doc_id, p.label, p.proba
FROM "public".sqlnb_predict(sqlnb_model, sqlnb_tokens, CAST(NULL AS TEXT)) AS p
$sqlnb$;
