INSERT INTO sqlnb_prior (
  model,
  class_id,
  label,
  log_prior
)
SELECT
  'spam' AS model,
  w.class_id AS class_id,
  w.label AS label,
  CASE WHEN w.weight > 0 THEN LN(w.weight) - LN(w.total) END AS log_prior
FROM (
  SELECT
    c.class_id AS class_id,
    c.label AS label,
    CAST(c.n_docs + CAST(0.0 AS DOUBLE) AS DOUBLE) AS weight,
    CAST(SUM(c.n_docs + CAST(0.0 AS DOUBLE)) OVER () AS DOUBLE) AS total
  FROM (
    SELECT
      c.class_id AS class_id,
      c.label AS label,
      c.n_docs AS n_docs
    FROM sqlnb_classes AS c
    WHERE
      c.model = 'spam'
  ) AS c
) AS w;
