-- The multi-label step of the scoring form, written once and bound by each engine form: the
-- rows form of any model (sql/multilabel/rows.sql: Spark's functions, PostgreSQL's fallback)
-- and the list form (sql/multilabel/lists.sql: DuckDB's macros over the lookup row,
-- ClickHouse's lambdas over its dictionaries). For a multi-label model ($threshold, the one it
-- stores: sql/multilabel/modes.sql) label is $labels, the labels whose binary probability is at
-- or above it in class order (the labels' sorted order), $empty when none, and proba $top, the
-- largest binary probability; for a model with no threshold (NULL) its $label as a list of one
-- (none if NULL: a walk that stopped above the tree) and its $proba.
SELECT
  CASE
    WHEN $threshold IS NULL THEN CASE WHEN $label IS NULL THEN $empty ELSE [$label] END
    ELSE COALESCE($labels, $empty)
  END AS label,
  CASE WHEN $threshold IS NULL THEN $proba ELSE $top END AS proba
