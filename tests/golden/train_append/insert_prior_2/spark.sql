INSERT INTO sqlnb_prior (
  model,
  class_id,
  label,
  log_prior
)
SELECT
  w.model AS model,
  w.class_id AS class_id,
  w.label AS label,
  CASE WHEN w.weight > 0 THEN LN(w.weight) - LN(w.total) END AS log_prior
FROM (
  SELECT
    c.model AS model,
    c.class_id AS class_id,
    c.label AS label,
    CAST(c.n_docs + CAST(0.0 AS DOUBLE) AS DOUBLE) AS weight,
    CAST(SUM(c.n_docs + CAST(0.0 AS DOUBLE)) OVER () AS DOUBLE) AS total
  FROM sqlnb_classes AS c
  WHERE
    c.model = 'spam'
) AS w;
