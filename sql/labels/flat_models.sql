-- The models whose labels do not form a tree (no separator stored: sqlnb/labels.py). Spark's SQL
-- functions, the rows form of any model, serve only these: they do not walk a tree (predict
-- does), and are an error that names a hierarchical model rather than its leaf.
SELECT m.model AS model
FROM sqlnb_models AS m
WHERE JSON_EXTRACT_STRING(m.params, '$.hierarchy') IS NULL
