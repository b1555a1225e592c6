INSERT INTO sqlnb_word_counts (
  model,
  class_id,
  word,
  count
)
SELECT
  'spam' AS model,
  c.class_id AS class_id,
  g.word AS word,
  g.count AS count
FROM (
  SELECT
    l.label AS label,
    t.word AS word,
    SUM(t.count * l.weight) AS count
  FROM (
    SELECT
      "doc_id" AS doc_id,
      CAST("word" AS TEXT) AS word,
      CAST("count" AS DOUBLE) AS count
    FROM "tokens" AS s
  ) AS t
  JOIN (
    SELECT DISTINCT
      "doc_id" AS doc_id,
      "label" AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM "labels" AS s
  ) AS l
    ON l.doc_id = t.doc_id
  WHERE
    t.count > 0
  GROUP BY
    l.label,
    t.word
) AS g
JOIN (
  SELECT
    v.label AS label,
    DENSE_RANK() OVER (ORDER BY v.label) - 1 AS class_id
  FROM (
    SELECT DISTINCT
      x.label AS label
    FROM (
      SELECT DISTINCT
        "doc_id" AS doc_id,
        "label" AS label,
        CAST(1 AS DOUBLE) AS weight
      FROM "labels" AS s
    ) AS x
  ) AS v
) AS c
  ON c.label = g.label
ORDER BY
  g.word;
