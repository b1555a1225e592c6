-- The label mode of every model in the catalog, the one place SQL reads it: threshold is the
-- threshold a multi-label model stores (trained with --multi-label: its params hold
-- "multi_label": true and "threshold", as sqlnb.multilabel.marked reads them in Python), NULL
-- for a model of one label per document. Read by DuckDB's functions (sqlnb.multilabel.listed),
-- the rows form's (rows.sql: Spark's), ClickHouse's model row (sql/functions/clickhouse/
-- model.clickhouse.sql) and the refusal of a multi-label model by sqlnb_predict
-- (sqlnb.functions.rows). The mark's text cast to a boolean reads it alike on every engine
-- (JSON true is 'true' in DuckDB, PostgreSQL, Spark and ClickHouse, 1 in SQLite; a missing
-- mark NULL, and '' in ClickHouse, which does not cast '' to a boolean).
SELECT
  m.model AS model,
  CASE
    WHEN CAST(NULLIF(JSON_EXTRACT_STRING(m.params, '$.multi_label'), '') AS BOOLEAN)
      THEN CAST(JSON_EXTRACT_STRING(m.params, '$.threshold') AS DOUBLE)
  END AS threshold
FROM sqlnb_models AS m
