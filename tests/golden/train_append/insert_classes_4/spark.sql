INSERT INTO sqlnb_classes (
  model,
  class_id,
  label,
  n_docs
)
SELECT
  'spam\037merged' AS model,
  DENSE_RANK() OVER (ORDER BY g.label NULLS LAST) - 1 AS class_id,
  g.label AS label,
  g.n_docs AS n_docs
FROM (
  SELECT
    c.label AS label,
    SUM(c.n_docs) AS n_docs
  FROM sqlnb_classes AS c
  WHERE
    c.model = 'spam' OR c.model = 'spam\037batch'
  GROUP BY
    c.label
) AS g;
