-- The label mode of every model in the catalog, the one place SQL reads it: threshold is the
-- threshold a multi-label model stores (trained with --multi-label: its params hold
-- "multi_label": true and "threshold", as sqlnb.multilabel.marked reads them in Python), NULL
-- for a model of one label per document. Read by DuckDB's functions (sqlnb.multilabel.listed),
-- the rows form's (rows.sql: Spark's) and the refusal of a multi-label model by sqlnb_predict
-- (sqlnb.functions.rows).
SELECT
  m.model AS model,
  CASE
    WHEN JSON_EXTRACT_STRING(m.params, '$.multi_label') = 'true'
      THEN CAST(JSON_EXTRACT_STRING(m.params, '$.threshold') AS DOUBLE)
  END AS threshold
FROM sqlnb_models AS m
