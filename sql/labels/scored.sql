-- Hierarchical labels in DuckDB's SQL functions (sqlnb_classify, sqlnb_proba): the text's flat
-- $label and $proba, its posterior in class order ($probas) with the classes' labels
-- (l.labels: sql/macros/lookup.sql, of the lookup row $row), and the separator and confidence
-- model $model stores (NULL separator: flat labels, the flat label stands).
SELECT
  $label AS label,
  $proba AS proba,
  l.labels AS labels,
  $probas AS probas,
  m.sep AS sep,
  m.confidence AS confidence
FROM $row AS l
LEFT JOIN (
  SELECT
    JSON_EXTRACT_STRING(g.params, '$.hierarchy') AS sep,
    CAST(JSON_EXTRACT_STRING(g.params, '$.confidence') AS DOUBLE) AS confidence
  FROM sqlnb_models AS g
  WHERE g.model = $model
) AS m
  ON TRUE
