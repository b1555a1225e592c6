-- Hierarchical labels in the rows form of any model (Spark's SQL functions): the confidence the
-- model sqlnb_model stores, as the one row sql/labels/walk.sql reads; 0 for a flat model (a
-- tree of one level, sql/labels/tree.sql: its walk takes the most probable class).
SELECT COALESCE(CAST(JSON_EXTRACT_STRING(g.params, '$.confidence') AS DOUBLE), 0) AS confidence
FROM sqlnb_models AS g
WHERE g.model = sqlnb_model
