INSERT OVERWRITE TABLE sqlnb_category_counts PARTITION(model = 'spam') (
  class_id,
  feature,
  value,
  count
)
SELECT
  o.class_id,
  o.feature,
  o.value,
  o.count
FROM (
  SELECT
    'spam' AS model,
    l.class_id AS class_id,
    x.feature AS feature,
    x.value AS value,
    SUM(l.weight) AS count
  FROM (
    SELECT
      `id` AS doc_id,
      'cough' AS feature,
      CAST(`cough` AS STRING) AS value
    FROM `patients` AS s
    WHERE
      NOT `cough` IS NULL
  ) AS x
  JOIN (
    SELECT
      l.doc_id AS doc_id,
      l.label AS label,
      l.weight AS weight,
      c.class_id AS class_id
    FROM (
      SELECT DISTINCT
        `id` AS doc_id,
        `label` AS label,
        CAST(1 AS DOUBLE) AS weight
      FROM `patients` AS s
    ) AS l
    JOIN (
      SELECT
        v.label AS label,
        DENSE_RANK() OVER (ORDER BY v.label NULLS LAST) - 1 AS class_id
      FROM (
        SELECT DISTINCT
          x.label AS label
        FROM (
          SELECT DISTINCT
            `id` AS doc_id,
            `label` AS label,
            CAST(1 AS DOUBLE) AS weight
          FROM `patients` AS s
        ) AS x
      ) AS v
    ) AS c
      ON c.label = l.label
  ) AS l
    ON l.doc_id = x.doc_id
  GROUP BY
    l.class_id,
    x.feature,
    x.value
) AS o;
