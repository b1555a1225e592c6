-- sqlnb_classify(model, text): the label (as a STRING; where a model is multi-label, the labels
-- as an ARRAY<STRING>) of raw text, tokenized with the model's own settings: the prediction
-- pipeline of every text model, the model a parameter. Spark 4.0+ SQL function in the current
-- database; Spark decorrelates it into set-based joins over the distinct (model, text) pairs
-- of the calling query.
CREATE OR REPLACE FUNCTION sqlnb_classify(sqlnb_model STRING, sqlnb_text STRING) RETURNS STRING
RETURN CASE
  WHEN sqlnb_model IS NULL
  THEN RAISE_ERROR('the model name is NULL')
  WHEN NOT EXISTS(
    SELECT
      1
    FROM sqlnb_models AS m
    WHERE
      m.model = sqlnb_model
  )
  THEN RAISE_ERROR('no model named \'' || sqlnb_model || '\' in this database')
  WHEN NOT EXISTS(
    SELECT
      1
    FROM `sqlnb_tokenizers` AS n
    WHERE
      n.model = sqlnb_model
  )
  THEN RAISE_ERROR(
    'model \'' || sqlnb_model || '\' ' || 'has no tokenizer (it was not trained from text): classify its tokens with sqlnb predict'
  )
  ELSE (
    (
      SELECT
        MAX(q.label)
      FROM (
        WITH sqlnb_input AS (
          SELECT
            g.doc_id AS doc_id,
            g.word AS word,
            CAST(1 AS DOUBLE) AS count
          FROM (
            SELECT
              m.doc_id AS doc_id,
              m.token AS word
            FROM (
              SELECT
                m.doc_id AS doc_id,
                m.token AS token,
                m.pos AS pos
              FROM (
                SELECT
                  `doc_id` AS doc_id,
                  POSEXPLODE(
                    REGEXP_EXTRACT_ALL(
                      LOWER(REPLACE(REPLACE(`text`, 'İ', 'i'), 'Σ', 'σ')),
                      '[\\pL\\pN]+(?:\'[\\pL\\pN]+)*',
                      0
                    )
                  ) AS (pos, token)
                FROM (
                  SELECT
                    1 AS doc_id,
                    sqlnb_text AS text
                ) AS s
              ) AS m
            ) AS m
            WHERE
              m.token <> '' AND TRUE
          ) AS g
        ), sqlnb_documents AS (
          SELECT
            1 AS doc_id
        ), sqlnb_jll AS (
          SELECT
            j.doc_id AS doc_id,
            j.class_id AS class_id,
            CASE WHEN j.base IS NULL OR j.n_zero > 0 THEN NULL ELSE j.base + j.score END AS jll
          FROM (
            SELECT
              u.doc_id AS doc_id,
              u.class_id AS class_id,
              MAX(u.base) AS base,
              SUM(u.n_zero) AS n_zero,
              SUM(u.score) AS score
            FROM (
              SELECT
                d.doc_id AS doc_id,
                b.class_id AS class_id,
                b.score AS base,
                b.n_zero AS n_zero,
                CAST(0 AS DOUBLE) AS score
              FROM sqlnb_documents AS d
              CROSS JOIN (
                SELECT
                  *
                FROM (
                  SELECT
                    b.class_id AS class_id,
                    b.score AS score,
                    b.n_zero AS n_zero
                  FROM sqlnb_base AS b
                  WHERE
                    b.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM `sqlnb_models`
                    WHERE
                      kind = 'multinomial'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    b.class_id AS class_id,
                    b.score AS score,
                    b.n_zero AS n_zero
                  FROM sqlnb_base AS b
                  WHERE
                    b.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM `sqlnb_models`
                    WHERE
                      kind = 'bernoulli'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    b.class_id AS class_id,
                    b.score AS score,
                    b.n_zero AS n_zero
                  FROM sqlnb_base AS b
                  WHERE
                    b.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM `sqlnb_models`
                    WHERE
                      kind = 'complement'
                  )
              ) AS b
              UNION ALL
              SELECT
                s.doc_id,
                s.class_id,
                CAST(NULL AS DOUBLE),
                s.n_zero,
                s.score
              FROM (
                SELECT
                  *
                FROM (
                  SELECT
                    s.doc_id AS doc_id,
                    c.class_id AS class_id,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.w0
                      WHEN 1
                      THEN s.w1
                      WHEN 2
                      THEN s.w2
                      WHEN 3
                      THEN s.w3
                      WHEN 4
                      THEN s.w4
                      WHEN 5
                      THEN s.w5
                      WHEN 6
                      THEN s.w6
                      WHEN 7
                      THEN s.w7
                    END AS score,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.z0
                      WHEN 1
                      THEN s.z1
                      WHEN 2
                      THEN s.z2
                      WHEN 3
                      THEN s.z3
                      WHEN 4
                      THEN s.z4
                      WHEN 5
                      THEN s.z5
                      WHEN 6
                      THEN s.z6
                      WHEN 7
                      THEN s.z7
                    END AS n_zero
                  FROM (
                    SELECT
                      t.doc_id AS doc_id,
                      s.base AS base,
                      SUM(t.count * COALESCE(s.w0, 0)) AS w0,
                      SUM(CASE WHEN s.w0 IS NULL THEN 1 ELSE 0 END) AS z0,
                      SUM(t.count * COALESCE(s.w1, 0)) AS w1,
                      SUM(CASE WHEN s.w1 IS NULL THEN 1 ELSE 0 END) AS z1,
                      SUM(t.count * COALESCE(s.w2, 0)) AS w2,
                      SUM(CASE WHEN s.w2 IS NULL THEN 1 ELSE 0 END) AS z2,
                      SUM(t.count * COALESCE(s.w3, 0)) AS w3,
                      SUM(CASE WHEN s.w3 IS NULL THEN 1 ELSE 0 END) AS z3,
                      SUM(t.count * COALESCE(s.w4, 0)) AS w4,
                      SUM(CASE WHEN s.w4 IS NULL THEN 1 ELSE 0 END) AS z4,
                      SUM(t.count * COALESCE(s.w5, 0)) AS w5,
                      SUM(CASE WHEN s.w5 IS NULL THEN 1 ELSE 0 END) AS z5,
                      SUM(t.count * COALESCE(s.w6, 0)) AS w6,
                      SUM(CASE WHEN s.w6 IS NULL THEN 1 ELSE 0 END) AS z6,
                      SUM(t.count * COALESCE(s.w7, 0)) AS w7,
                      SUM(CASE WHEN s.w7 IS NULL THEN 1 ELSE 0 END) AS z7
                    FROM (
                      SELECT
                        t.doc_id AS doc_id,
                        t.word AS word,
                        t.count AS count
                      FROM sqlnb_input AS t
                      WHERE
                        t.count > 0
                    ) AS t
                    JOIN `sqlnb_scoring` AS s
                      ON s.word = t.word
                    WHERE
                      s.model = sqlnb_model
                    GROUP BY
                      t.doc_id,
                      s.base
                  ) AS s
                  JOIN sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM `sqlnb_models`
                    WHERE
                      kind = 'multinomial'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    s.doc_id AS doc_id,
                    c.class_id AS class_id,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.w0
                      WHEN 1
                      THEN s.w1
                      WHEN 2
                      THEN s.w2
                      WHEN 3
                      THEN s.w3
                      WHEN 4
                      THEN s.w4
                      WHEN 5
                      THEN s.w5
                      WHEN 6
                      THEN s.w6
                      WHEN 7
                      THEN s.w7
                    END AS score,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.z0
                      WHEN 1
                      THEN s.z1
                      WHEN 2
                      THEN s.z2
                      WHEN 3
                      THEN s.z3
                      WHEN 4
                      THEN s.z4
                      WHEN 5
                      THEN s.z5
                      WHEN 6
                      THEN s.z6
                      WHEN 7
                      THEN s.z7
                    END AS n_zero
                  FROM (
                    SELECT
                      t.doc_id AS doc_id,
                      CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END AS base,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w0, 0)) AS w0,
                      SUM(CASE WHEN s.w0 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z0,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w1, 0)) AS w1,
                      SUM(CASE WHEN s.w1 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z1,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w2, 0)) AS w2,
                      SUM(CASE WHEN s.w2 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z2,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w3, 0)) AS w3,
                      SUM(CASE WHEN s.w3 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z3,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w4, 0)) AS w4,
                      SUM(CASE WHEN s.w4 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z4,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w5, 0)) AS w5,
                      SUM(CASE WHEN s.w5 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z5,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w6, 0)) AS w6,
                      SUM(CASE WHEN s.w6 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z6,
                      SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE(s.w7, 0)) AS w7,
                      SUM(CASE WHEN s.w7 IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z7
                    FROM (
                      SELECT DISTINCT
                        x.doc_id AS doc_id,
                        x.word AS word,
                        1 AS count
                      FROM sqlnb_input AS x
                      WHERE
                        x.count > 0
                    ) AS t
                    JOIN `sqlnb_scoring` AS s
                      ON s.word = t.word
                    WHERE
                      s.model = sqlnb_model
                    GROUP BY
                      t.doc_id,
                      CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END
                  ) AS s
                  JOIN sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM `sqlnb_models`
                    WHERE
                      kind = 'bernoulli'
                  )
                UNION ALL
                SELECT
                  *
                FROM (
                  SELECT
                    s.doc_id AS doc_id,
                    c.class_id AS class_id,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.w0
                      WHEN 1
                      THEN s.w1
                      WHEN 2
                      THEN s.w2
                      WHEN 3
                      THEN s.w3
                      WHEN 4
                      THEN s.w4
                      WHEN 5
                      THEN s.w5
                      WHEN 6
                      THEN s.w6
                      WHEN 7
                      THEN s.w7
                    END AS score,
                    CASE c.class_id % 8
                      WHEN 0
                      THEN s.z0
                      WHEN 1
                      THEN s.z1
                      WHEN 2
                      THEN s.z2
                      WHEN 3
                      THEN s.z3
                      WHEN 4
                      THEN s.z4
                      WHEN 5
                      THEN s.z5
                      WHEN 6
                      THEN s.z6
                      WHEN 7
                      THEN s.z7
                    END AS n_zero
                  FROM (
                    SELECT
                      t.doc_id AS doc_id,
                      s.base AS base,
                      SUM(t.count * COALESCE(s.w0, 0)) AS w0,
                      SUM(CASE WHEN s.w0 IS NULL THEN 1 ELSE 0 END) AS z0,
                      SUM(t.count * COALESCE(s.w1, 0)) AS w1,
                      SUM(CASE WHEN s.w1 IS NULL THEN 1 ELSE 0 END) AS z1,
                      SUM(t.count * COALESCE(s.w2, 0)) AS w2,
                      SUM(CASE WHEN s.w2 IS NULL THEN 1 ELSE 0 END) AS z2,
                      SUM(t.count * COALESCE(s.w3, 0)) AS w3,
                      SUM(CASE WHEN s.w3 IS NULL THEN 1 ELSE 0 END) AS z3,
                      SUM(t.count * COALESCE(s.w4, 0)) AS w4,
                      SUM(CASE WHEN s.w4 IS NULL THEN 1 ELSE 0 END) AS z4,
                      SUM(t.count * COALESCE(s.w5, 0)) AS w5,
                      SUM(CASE WHEN s.w5 IS NULL THEN 1 ELSE 0 END) AS z5,
                      SUM(t.count * COALESCE(s.w6, 0)) AS w6,
                      SUM(CASE WHEN s.w6 IS NULL THEN 1 ELSE 0 END) AS z6,
                      SUM(t.count * COALESCE(s.w7, 0)) AS w7,
                      SUM(CASE WHEN s.w7 IS NULL THEN 1 ELSE 0 END) AS z7
                    FROM (
                      SELECT
                        t.doc_id AS doc_id,
                        t.word AS word,
                        t.count AS count
                      FROM sqlnb_input AS t
                      WHERE
                        t.count > 0
                    ) AS t
                    JOIN `sqlnb_scoring` AS s
                      ON s.word = t.word
                    WHERE
                      s.model = sqlnb_model
                    GROUP BY
                      t.doc_id,
                      s.base
                  ) AS s
                  JOIN sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS k
                WHERE
                  sqlnb_model IN (
                    SELECT
                      model
                    FROM `sqlnb_models`
                    WHERE
                      kind = 'complement'
                  )
              ) AS s
            ) AS u
            GROUP BY
              u.doc_id,
              u.class_id
          ) AS j
        ), sqlnb_posterior AS (
          SELECT
            b.doc_id AS doc_id,
            b.class_id AS class_id,
            b.jll AS jll,
            b.jll - (
              b.top + LN(CASE WHEN b.total > 0 THEN b.total END)
            ) AS log_proba,
            CASE
              WHEN b.top IS NULL
              THEN NULL
              WHEN b.jll IS NULL
              THEN CAST(0 AS DOUBLE)
              WHEN b.jll - (
                b.top + LN(b.total)
              ) < -700
              THEN CAST(0 AS DOUBLE)
              ELSE EXP(b.jll - (
                b.top + LN(b.total)
              ))
            END AS proba,
            ROW_NUMBER() OVER (
              PARTITION BY b.doc_id
              ORDER BY CASE WHEN b.jll IS NULL THEN 1 ELSE 0 END NULLS LAST, b.jll DESC, b.class_id NULLS LAST
            ) AS rn
          FROM (
            SELECT
              a.doc_id AS doc_id,
              a.class_id AS class_id,
              a.jll AS jll,
              a.top AS top,
              SUM(
                CASE WHEN a.jll IS NULL OR a.jll - a.top < -700 THEN 0 ELSE EXP(a.jll - a.top) END
              ) OVER (PARTITION BY a.doc_id) AS total
            FROM (
              SELECT
                j.doc_id AS doc_id,
                j.class_id AS class_id,
                j.jll AS jll,
                MAX(j.jll) OVER (PARTITION BY j.doc_id) AS top
              FROM sqlnb_jll AS j
            ) AS a
          ) AS b
        )
        SELECT
          p.doc_id AS doc_id,
          c.label AS label,
          p.proba AS proba
        FROM sqlnb_posterior AS p
        JOIN sqlnb_classes AS c
          ON c.class_id = p.class_id
        WHERE
          c.model = sqlnb_model AND p.rn = 1
      ) AS q
    )
  )
END;
