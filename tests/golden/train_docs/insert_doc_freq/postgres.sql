INSERT INTO sqlnb_doc_freq (
  model,
  word,
  df
)
SELECT
  'spam' AS model,
  t.word AS word,
  CAST(COUNT(*) AS DOUBLE PRECISION) AS df
FROM (
  SELECT
    x.doc_id AS doc_id,
    x.word AS word
  FROM (
    WITH sqlnb_kept AS (
      SELECT
        t.doc_id AS doc_id,
        t.token AS token,
        t.pos AS pos
      FROM (
        SELECT
          s.doc_id AS doc_id,
          m.match[1] AS token,
          m.pos AS pos
        FROM (
          SELECT
            "id" AS doc_id,
            LOWER("body") AS text
          FROM "emails" AS x
        ) AS s
        CROSS JOIN LATERAL REGEXP_MATCHES(
          s.text,
          '[<\pL of Unicode 15.0.0: e821a1d7bea1><\pN of Unicode 15.0.0: 814e8573acd0>]+(?:''[<\pL of Unicode 15.0.0: e821a1d7bea1><\pN of Unicode 15.0.0: 814e8573acd0>]+)*',
          'g'
        ) WITH ORDINALITY AS m(match, pos)
      ) AS t
      WHERE
        TRUE AND t.token <> ''
    )
    SELECT
      g.doc_id AS doc_id,
      g.word AS word,
      CAST(1 AS DOUBLE PRECISION) AS count
    FROM (
      SELECT
        g.doc_id AS doc_id,
        g.gram AS word
      FROM (
        SELECT
          k.doc_id AS doc_id,
          k.token AS gram
        FROM sqlnb_kept AS k
      ) AS g
      WHERE
        NOT g.gram IS NULL
      UNION ALL
      SELECT
        g.doc_id AS doc_id,
        g.gram AS word
      FROM (
        SELECT
          k.doc_id AS doc_id,
          k.token || ' ' || LEAD(k.token, 1) OVER (PARTITION BY k.doc_id ORDER BY k.pos) AS gram
        FROM sqlnb_kept AS k
      ) AS g
      WHERE
        NOT g.gram IS NULL
    ) AS g
  ) AS x
  GROUP BY
    x.doc_id,
    x.word
  HAVING
    SUM(x.count) > 0
) AS t
WHERE
  t.doc_id IN (
    SELECT
      l.doc_id
    FROM (
      SELECT DISTINCT
        "id" AS doc_id,
        "label" AS label,
        CAST(1 AS DOUBLE PRECISION) AS weight
      FROM "emails" AS s
    ) AS l
  )
GROUP BY
  t.word;
