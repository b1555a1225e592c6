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
      x.doc_id AS doc_id,
      x.word AS word,
      x.value / COALESCE(
        NULLIF(
          CASE
            WHEN x.norm = 'l1'
            THEN SUM(ABS(x.value)) OVER (PARTITION BY x.doc_id)
            WHEN x.norm = 'l2'
            THEN SQRT(SUM(x.value * x.value) OVER (PARTITION BY x.doc_id))
            ELSE 1
          END,
          0
        ),
        1
      ) AS count
    FROM (
      SELECT
        t.doc_id AS doc_id,
        t.word AS word,
        CASE WHEN f.sublinear THEN 1 + LN(t.count) ELSE t.count END * f.idf AS value,
        f.norm AS norm
      FROM (
        SELECT
          g.doc_id AS doc_id,
          g.word AS word,
          SUM(g.count) AS count
        FROM (
          WITH sqlnb_kept AS (
            SELECT
              t.doc_id AS doc_id,
              t.token AS token,
              t.pos AS pos
            FROM (
              SELECT
                m.doc_id AS doc_id,
                UNNEST(m.tokens) AS token,
                GENERATE_SUBSCRIPTS(m.tokens, 1) AS pos
              FROM (
                SELECT
                  x.doc_id AS doc_id,
                  CASE
                    WHEN TRUE AND REGEXP_FULL_MATCH(x.text, '[\pL\pN ]*')
                    THEN STR_SPLIT(x.text, ' ')
                    ELSE REGEXP_EXTRACT_ALL(x.text, '[\pL\pN]+(?:''[\pL\pN]+)*')
                  END AS tokens
                FROM (
                  SELECT
                    "id" AS doc_id,
                    LOWER("body") AS text
                  FROM (
                    SELECT
                      *
                    FROM "emails"
                    WHERE
                      (
                        HASH("id") % 2
                      ) = 0
                  ) AS s
                ) AS x
              ) AS m
              UNION ALL
              SELECT
                m.doc_id AS doc_id,
                UNNEST(m.tokens) AS token,
                GENERATE_SUBSCRIPTS(m.tokens, 1) AS pos
              FROM (
                SELECT
                  x.doc_id AS doc_id,
                  CASE
                    WHEN TRUE AND REGEXP_FULL_MATCH(x.text, '[\pL\pN ]*')
                    THEN STR_SPLIT(x.text, ' ')
                    ELSE REGEXP_EXTRACT_ALL(x.text, '[\pL\pN]+(?:''[\pL\pN]+)*')
                  END AS tokens
                FROM (
                  SELECT
                    "id" AS doc_id,
                    LOWER("body") AS text
                  FROM (
                    SELECT
                      *
                    FROM "emails"
                    WHERE
                      (
                        HASH("id") % 2
                      ) = 1
                  ) AS s
                ) AS x
              ) AS m
            ) AS t
            WHERE
              TRUE AND t.token <> ''
          )
          SELECT
            g.doc_id AS doc_id,
            g.word AS word,
            CAST(1 AS DOUBLE) AS count
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
        ) AS g
        GROUP BY
          g.doc_id,
          g.word
        HAVING
          SUM(g.count) > 0
      ) AS t
      JOIN (
        SELECT
          'spam' AS model,
          d.word AS word,
          CASE
            WHEN 'smooth' = 'smooth'
            THEN LN((
              1 + n.n_docs
            ) / (
              1 + d.df
            )) + 1
            WHEN 'smooth' = 'plain'
            THEN LN(n.n_docs / d.df) + 1
            ELSE CAST(1 AS DOUBLE)
          END AS idf,
          TRUE AS sublinear,
          CAST('l2' AS TEXT) AS norm
        FROM sqlnb_doc_freq AS d
        CROSS JOIN (
          SELECT
            COALESCE(
              (
                SELECT
                  MAX(k.n)
                FROM sqlnb_doc_count AS k
                WHERE
                  k.model = 'spam'
              ),
              (
                SELECT
                  SUM(c.n_docs)
                FROM sqlnb_classes AS c
                WHERE
                  c.model = 'spam'
              )
            ) AS n_docs
        ) AS n
        WHERE
          d.model = 'spam'
      ) AS f
        ON f.word = t.word
      WHERE
        f.model = 'spam'
    ) AS x
  ) AS t
  JOIN (
    SELECT DISTINCT
      "id" AS doc_id,
      "label" AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM "emails" AS s
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
      SELECT
        "label" AS label
      FROM "emails"
    ) AS x
  ) AS v
) AS c
  ON c.label = g.label
ORDER BY
  g.word;
