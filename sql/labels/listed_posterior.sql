-- Hierarchical labels in DuckDB's SQL functions: the text's posterior as rows (doc_id, class_id,
-- proba), from its list in class order ($scored: sql/labels/scored.sql), for
-- sql/labels/nodes.sql: the walk written once.
SELECT
  1 AS doc_id,
  UNNEST(RANGE(1, LEN(s.probas) + 1)) AS class_id,
  UNNEST(s.probas) AS proba
FROM $scored AS s
WHERE NOT s.sep IS NULL
