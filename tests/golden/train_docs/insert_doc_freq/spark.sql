WITH sqlnb_kept AS (
@kept
)
INSERT OVERWRITE TABLE sqlnb_doc_freq PARTITION(model = 'spam') (
  word,
  df
)
SELECT
  o.word,
  o.df
FROM (
  SELECT
    'spam' AS model,
    t.word AS word,
    CAST(COUNT(*) AS DOUBLE) AS df
  FROM (
    SELECT
      x.doc_id AS doc_id,
      x.word AS word
    FROM (
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
            k.token || ' ' || LEAD(k.token, 1) OVER (PARTITION BY k.doc_id ORDER BY k.pos NULLS LAST) AS gram
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
          `id` AS doc_id,
          `label` AS label,
          CAST(1 AS DOUBLE) AS weight
        FROM `emails` AS s
      ) AS l
    )
  GROUP BY
    t.word
) AS o;
