INSERT INTO sqlnb_classes (
  model,
  class_id,
  label,
  n_docs
)
SELECT
  'spam' AS model,
  l.class_id AS class_id,
  CAST(l.label AS VARCHAR) AS label,
  SUM(l.weight) AS n_docs
FROM (
  SELECT
    l.doc_id AS doc_id,
    l.label AS label,
    l.weight AS weight,
    c.class_id AS class_id
  FROM (
    SELECT DISTINCT
      "id" AS doc_id,
      "label" AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM "emails" AS s
  ) AS l
  JOIN (
    SELECT
      v.label AS label,
      DENSE_RANK() OVER (ORDER BY v.label) - 1 AS class_id
    FROM (
      SELECT DISTINCT
        x.label AS label
      FROM (
        SELECT
          "label" AS label
        FROM "emails"
      ) AS x
    ) AS v
  ) AS c
    ON c.label = l.label
) AS l
GROUP BY
  l.class_id,
  l.label;
