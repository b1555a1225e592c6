CREATE OR REPLACE MACRO sqlnb_classify(
    sqlnb_model,
    sqlnb_text
) AS
(
  CASE
    WHEN sqlnb_model IS NULL
    THEN ERROR('the model name is NULL')
    WHEN NOT EXISTS(
      SELECT
        1
      FROM sqlnb_models AS m
      WHERE
        m.model = sqlnb_model
    )
    THEN ERROR('no model named ''' || sqlnb_model || ''' in this database')
    WHEN NOT EXISTS(
      SELECT
        1
      FROM "sqlnb_tokenizers" AS n
      WHERE
        n.model = sqlnb_model
    )
    THEN ERROR(
      'model ''' || sqlnb_model || ''' ' || 'has no tokenizer (it was not trained from text): classify its tokens with sqlnb_predict'
    )
    ELSE (
      (
        SELECT
          LIST_TRANSFORM(
            [
              LIST_TRANSFORM(
                [CASE WHEN l.presence THEN LIST_DISTINCT(l.sqlnb_tokens) ELSE l.sqlnb_tokens END],
                LAMBDA toks : LIST_TRANSFORM(
                  [
                    LIST_TRANSFORM(
                      toks,
                      LAMBDA t : CASE
                        WHEN l.words[ABS(l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1])] = t
                        THEN ABS(l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1])
                        WHEN l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1] < 0
                        THEN COALESCE(
                          LIST_FILTER(
                            RANGE(
                              1 - l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1],
                              l.longest - l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1]
                            ),
                            LAMBDA i : l.owner[i] = CAST(HASH(t) % l.buckets AS BIGINT) + 1 AND l.words[i] = t
                          )[1],
                          0
                        )
                        ELSE 0
                      END
                    )
                  ],
                  LAMBDA found : LIST_TRANSFORM(
                    RANGE(1, LENGTH(l.labels) + 1),
                    LAMBDA c : CASE
                      WHEN l.base[c] IS NULL
                      OR CASE
                        WHEN l.zeros
                        THEN l.base_zero[c] + COALESCE(LIST_SUM(LIST_SELECT(l.zero[c], found)), 0)
                        ELSE 0
                      END > 0
                      THEN NULL
                      ELSE l.base[c] + COALESCE(LIST_SUM(LIST_SELECT(l.weight[c], found)), 0)
                    END
                  )
                )[1]
              )[1]
            ],
            LAMBDA j : LIST_TRANSFORM(
              [LIST_MAX(j)],
              LAMBDA top : l.labels[CASE WHEN top IS NULL THEN 1 ELSE LIST_POSITION(j, top) END]
            )[1]
          )[1]
        FROM (
          SELECT
            *,
            LIST_TRANSFORM(
              [
                LIST_FILTER(
                  CASE
                    WHEN TRUE AND REGEXP_FULL_MATCH(LOWER(sqlnb_text), '[\pL\pN ]*')
                    THEN STR_SPLIT(LOWER(sqlnb_text), ' ')
                    ELSE REGEXP_EXTRACT_ALL(LOWER(sqlnb_text), '[\pL\pN]+(?:''[\pL\pN]+)*')
                  END,
                  LAMBDA t : t <> '' AND TRUE
                )
              ],
              LAMBDA k : k
            )[1] AS sqlnb_tokens
          FROM (
            SELECT
              *
            FROM sqlnb_lookup
            WHERE
              model = sqlnb_model
            UNION ALL
            SELECT
              sqlnb_model AS model,
              *
            FROM (
              WITH classes AS (
                SELECT
                  c.class_id AS class_id,
                  c.label AS label
                FROM sqlnb_classes AS c
                WHERE
                  c.model = sqlnb_model
              ), weights AS (
                SELECT
                  *
                FROM (
                  SELECT
                    s.word AS word,
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
                    END AS weight,
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
                    END AS zero
                  FROM (
                    SELECT
                      r.word AS word,
                      CASE WHEN r.base < 0 THEN -1 - r.base ELSE r.base END AS base,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w0, 0)) AS w0,
                      SUM(CASE WHEN r.w0 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z0,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w1, 0)) AS w1,
                      SUM(CASE WHEN r.w1 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z1,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w2, 0)) AS w2,
                      SUM(CASE WHEN r.w2 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z2,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w3, 0)) AS w3,
                      SUM(CASE WHEN r.w3 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z3,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w4, 0)) AS w4,
                      SUM(CASE WHEN r.w4 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z4,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w5, 0)) AS w5,
                      SUM(CASE WHEN r.w5 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z5,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w6, 0)) AS w6,
                      SUM(CASE WHEN r.w6 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z6,
                      SUM(CASE WHEN r.base < 0 THEN -1 ELSE 1 END * COALESCE(r.w7, 0)) AS w7,
                      SUM(CASE WHEN r.w7 IS NULL THEN CASE WHEN r.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS z7
                    FROM sqlnb_scoring AS r
                    WHERE
                      r.model = sqlnb_model
                      AND NOT EXISTS(
                        SELECT
                          *
                        FROM sqlnb_lookup
                        WHERE
                          model = sqlnb_model
                      )
                    GROUP BY
                      r.word,
                      CASE WHEN r.base < 0 THEN -1 - r.base ELSE r.base END
                  ) AS s
                  JOIN sqlnb_classes AS c
                    ON c.class_id - c.class_id % 8 = s.base
                  WHERE
                    c.model = sqlnb_model
                ) AS w
              ), size AS (
                SELECT
                  CAST(4 * COUNT(DISTINCT w.word) + 1 AS UBIGINT) AS buckets
                FROM weights AS w
              ), vocabulary AS (
                SELECT
                  v.word AS word,
                  v.bucket AS bucket,
                  ROW_NUMBER() OVER (ORDER BY v.bucket, v.word) AS pos
                FROM (
                  SELECT DISTINCT
                    w.word AS word,
                    CAST(HASH(w.word) % z.buckets AS BIGINT) + 1 AS bucket
                  FROM weights AS w
                  CROSS JOIN size AS z
                ) AS v
              ), occupied AS (
                SELECT
                  v.bucket AS bucket,
                  CASE WHEN COUNT(*) > 1 THEN -MIN(v.pos) ELSE MIN(v.pos) END AS start,
                  COUNT(*) AS cnt
                FROM vocabulary AS v
                GROUP BY
                  v.bucket
              )
              SELECT
                z.buckets AS buckets,
                v.words AS words,
                v.owner AS owner,
                s.start AS start,
                s.longest AS longest,
                o.weight AS weight,
                o.zero AS zero,
                x.zeros AS zeros,
                b.base AS base,
                b.base_zero AS base_zero,
                b.presence AS presence,
                c.labels AS labels,
                t.settings AS settings,
                f.idf AS idf,
                f.sublinear AS sublinear,
                f.norm AS norm,
                COALESCE(f.transformed, FALSE) AS transformed,
                k.scale AS scale,
                k.calibrated AS calibrated,
                k.cal_method AS cal_method,
                k.cal_lo AS cal_lo,
                k.cal_a AS cal_a,
                k.cal_b AS cal_b
              FROM size AS z
              CROSS JOIN (
                SELECT
                  ARRAY_AGG(v.word ORDER BY v.pos) AS words,
                  ARRAY_AGG(v.bucket ORDER BY v.pos) AS owner
                FROM vocabulary AS v
              ) AS v
              CROSS JOIN (
                SELECT
                  ARRAY_AGG(COALESCE(g.start, 0) ORDER BY r.range) AS start,
                  MAX(g.cnt) AS longest
                FROM size AS z
                CROSS JOIN RANGE(0, CAST(z.buckets AS BIGINT)) AS r
                LEFT JOIN occupied AS g
                  ON g.bucket = r.range + 1
              ) AS s
              CROSS JOIN (
                SELECT
                  ARRAY_AGG(p.weight ORDER BY p.class_id) AS weight,
                  ARRAY_AGG(p.zero ORDER BY p.class_id) AS zero
                FROM (
                  SELECT
                    w.class_id AS class_id,
                    ARRAY_AGG(w.weight ORDER BY v.pos) AS weight,
                    ARRAY_AGG(w.zero ORDER BY v.pos) AS zero
                  FROM weights AS w
                  JOIN vocabulary AS v
                    ON v.word = w.word
                  GROUP BY
                    w.class_id
                ) AS p
              ) AS o
              CROSS JOIN (
                SELECT
                  COALESCE(BOOL_OR(CAST(w.zero <> 0 AS BOOLEAN)), FALSE) AS zeros
                FROM weights AS w
              ) AS x
              CROSS JOIN (
                SELECT
                  ARRAY_AGG(b.score ORDER BY b.class_id) AS base,
                  ARRAY_AGG(b.n_zero ORDER BY b.class_id) AS base_zero,
                  BOOL_OR(CAST(b.presence AS BOOLEAN)) AS presence
                FROM sqlnb_base AS b
                WHERE
                  b.model = sqlnb_model
              ) AS b
              CROSS JOIN (
                SELECT
                  ARRAY_AGG(c.label ORDER BY c.class_id) AS labels
                FROM classes AS c
              ) AS c
              CROSS JOIN (
                SELECT
                  ARRAY_AGG(f.idf ORDER BY v.pos) AS idf,
                  BOOL_OR(CAST(f.sublinear AS BOOLEAN)) AS sublinear,
                  MAX(f.norm) AS norm,
                  COUNT(*) > 0 AS transformed
                FROM vocabulary AS v
                JOIN sqlnb_transform AS f
                  ON f.model = sqlnb_model AND f.word = v.word
              ) AS f
              CROSS JOIN (
                SELECT
                  COALESCE(MAX(q.t), CAST(1 AS DOUBLE)) AS scale,
                  COALESCE(MAX(q.n), 0) > 0 AS calibrated,
                  ARRAY_AGG(q.method ORDER BY q.class_id) AS cal_method,
                  ARRAY_AGG(q.lo ORDER BY q.class_id) AS cal_lo,
                  ARRAY_AGG(q.a ORDER BY q.class_id) AS cal_a,
                  ARRAY_AGG(q.b ORDER BY q.class_id) AS cal_b
                FROM (
                  SELECT
                    c.class_id AS class_id,
                    MAX(k.scale) AS t,
                    COUNT(CASE WHEN k.mapped THEN 1 END) AS n,
                    MAX(CASE WHEN k.mapped THEN k.method END) AS method,
                    ARRAY_AGG(k.lo ORDER BY k.lo) FILTER(WHERE
                      k.mapped) AS lo,
                    ARRAY_AGG(k.a ORDER BY k.lo) FILTER(WHERE
                      k.mapped) AS a,
                    ARRAY_AGG(k.b ORDER BY k.lo) FILTER(WHERE
                      k.mapped) AS b
                  FROM classes AS c
                  LEFT JOIN (
                    SELECT
                      k.model AS model,
                      k.method AS method,
                      k.class_id AS class_id,
                      k.lo AS lo,
                      k.hi AS hi,
                      k.a AS a,
                      k.b AS b,
                      CASE WHEN k.method = 'temperature' THEN k.a END AS scale,
                      k.method <> 'temperature' AS mapped
                    FROM sqlnb_calibration AS k
                  ) AS k
                    ON k.model = sqlnb_model AND k.class_id = c.class_id
                  GROUP BY
                    c.class_id
                ) AS q
              ) AS k
              LEFT JOIN sqlnb_tokenizers AS t
                ON t.model = sqlnb_model
            ) AS b
            WHERE
              NOT EXISTS(
                SELECT
                  *
                FROM sqlnb_lookup
                WHERE
                  model = sqlnb_model
              )
          ) AS l
        ) AS l
      )
    )
  END
);
