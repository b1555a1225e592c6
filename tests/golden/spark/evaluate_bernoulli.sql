DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
CREATE TEMPORARY VIEW sqlnb_outcomes_xxxxxxxx AS
WITH sqlnb_truth AS (
  SELECT DISTINCT
    `doc_id` AS doc_id,
    `label` AS label,
    CAST(1 AS DOUBLE) AS weight
  FROM `labels` AS s
), sqlnb_input AS (
  SELECT
    `doc_id` AS doc_id,
    CAST(`word` AS STRING) AS word,
    CAST(`count` AS DOUBLE) AS count
  FROM `tokens` AS s
), sqlnb_documents AS (
  SELECT DISTINCT
    doc_id
  FROM sqlnb_truth AS s
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
        CAST(b.n_zero AS BIGINT) AS n_zero,
        CAST(0 AS DOUBLE) AS score,
        1 AS listed
      FROM sqlnb_documents AS d
      CROSS JOIN (
        SELECT
          b.class_id AS class_id,
          b.score AS score,
          b.n_zero AS n_zero
        FROM sqlnb_base AS b
        WHERE
          b.model = 'spam'
      ) AS b
      UNION ALL
      SELECT
        s.doc_id AS doc_id,
        s.class_id AS class_id,
        CAST(NULL AS DOUBLE) AS base,
        CAST(s.n_zero AS BIGINT) AS n_zero,
        s.score AS score,
        0 AS listed
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
          0 AS n_zero
        FROM (
          SELECT
            t.doc_id AS doc_id,
            CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END AS base,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w0) AS w0,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w1) AS w1,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w2) AS w2,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w3) AS w3,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w4) AS w4,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w5) AS w5,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w6) AS w6,
            SUM(t.count * CASE WHEN s.base < 0 THEN -1 ELSE 1 END * s.w7) AS w7
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
            s.model = 'spam'
          GROUP BY
            t.doc_id,
            CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END
        ) AS s
        JOIN sqlnb_classes AS c
          ON c.class_id - c.class_id % 8 = s.base
        WHERE
          c.model = 'spam'
      ) AS s
    ) AS u
    GROUP BY
      u.doc_id,
      u.class_id
    HAVING
      MAX(u.listed) = 1
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
  g.doc_id AS doc_id,
  g.true_label AS true_label,
  g.predicted AS predicted,
  COALESCE(g.p_true, CAST(0 AS DOUBLE)) AS p_true,
  COALESCE(g.confidence, CAST(0 AS DOUBLE)) AS confidence,
  COALESCE(g.p_squares, CAST(0 AS DOUBLE)) AS p_squares
FROM (
  SELECT
    k.doc_id AS doc_id,
    MAX(CASE WHEN k.is_true = 1 THEN k.label END) AS true_label,
    MAX(CASE WHEN k.is_top = 1 THEN k.label END) AS predicted,
    MAX(CASE WHEN k.is_true = 1 THEN k.proba END) AS p_true,
    MAX(CASE WHEN k.is_top = 1 THEN k.proba END) AS confidence,
    SUM(CASE WHEN k.proba < 1E-150 THEN 0 ELSE k.proba * k.proba END) AS p_squares
  FROM (
    SELECT
      u.doc_id AS doc_id,
      u.label AS label,
      MAX(u.is_true) AS is_true,
      MAX(u.is_top) AS is_top,
      MAX(u.proba) AS proba
    FROM (
      SELECT
        y.doc_id AS doc_id,
        CAST(y.label AS STRING) AS label,
        1 AS is_true,
        0 AS is_top,
        CAST(NULL AS DOUBLE) AS proba
      FROM sqlnb_truth AS y
      UNION ALL
      SELECT
        p.doc_id AS doc_id,
        c.label AS label,
        0 AS is_true,
        CASE WHEN p.rn = 1 THEN 1 ELSE 0 END AS is_top,
        p.proba AS proba
      FROM sqlnb_posterior AS p
      JOIN (
        SELECT
          class_id,
          label
        FROM sqlnb_classes
        WHERE
          model = 'spam'
      ) AS c
        ON c.class_id = p.class_id
    ) AS u
    GROUP BY
      u.doc_id,
      u.label
  ) AS k
  GROUP BY
    k.doc_id
  HAVING
    MAX(k.is_true) = 1
) AS g;
SELECT
  o.true_label AS true_label,
  o.predicted AS predicted,
  COUNT(*) AS count
FROM sqlnb_outcomes_xxxxxxxx AS o
GROUP BY
  o.true_label,
  o.predicted
ORDER BY
  o.true_label NULLS LAST,
  o.predicted NULLS LAST;
SELECT
  s.label AS label,
  CASE WHEN s.predicted > 0 THEN s.tp / s.predicted ELSE CAST(0 AS DOUBLE) END AS `precision`,
  CASE WHEN s.support > 0 THEN s.tp / s.support ELSE CAST(0 AS DOUBLE) END AS recall,
  CASE
    WHEN s.support + s.predicted > 0
    THEN 2 * s.tp / (
      s.support + s.predicted
    )
    ELSE CAST(0 AS DOUBLE)
  END AS f1,
  CAST(s.support AS BIGINT) AS support
FROM (
  SELECT
    u.label AS label,
    SUM(u.tp) AS tp,
    SUM(u.is_true) AS support,
    SUM(u.is_predicted) AS predicted
  FROM (
    SELECT
      o.true_label AS label,
      CASE
        WHEN o.true_label = o.predicted
        THEN CAST(1 AS DOUBLE)
        ELSE CAST(0 AS DOUBLE)
      END AS tp,
      CAST(1 AS DOUBLE) AS is_true,
      CAST(0 AS DOUBLE) AS is_predicted
    FROM sqlnb_outcomes_xxxxxxxx AS o
    UNION ALL
    SELECT
      o.predicted AS label,
      CAST(0 AS DOUBLE) AS tp,
      CAST(0 AS DOUBLE) AS is_true,
      CAST(1 AS DOUBLE) AS is_predicted
    FROM sqlnb_outcomes_xxxxxxxx AS o
  ) AS u
  GROUP BY
    u.label
) AS s
ORDER BY
  s.label NULLS LAST;
SELECT
  a.n_docs AS n_docs,
  a.accuracy AS accuracy,
  f.macro_f1 AS macro_f1,
  a.log_loss AS log_loss,
  a.brier AS brier,
  e.ece AS ece
FROM (
  SELECT
    COUNT(*) AS n_docs,
    AVG(
      CASE
        WHEN o.true_label = o.predicted
        THEN CAST(1 AS DOUBLE)
        ELSE CAST(0 AS DOUBLE)
      END
    ) AS accuracy,
    -AVG(
      LN(
        CASE
          WHEN o.p_true < 2.220446049250313e-16
          THEN 2.220446049250313e-16
          WHEN o.p_true > 1 - 2.220446049250313e-16
          THEN 1 - 2.220446049250313e-16
          ELSE o.p_true
        END
      )
    ) AS log_loss,
    AVG(o.p_squares - 2 * o.p_true + 1) AS brier
  FROM sqlnb_outcomes_xxxxxxxx AS o
) AS a
CROSS JOIN (
  SELECT
    AVG(pc.f1) AS macro_f1
  FROM (
    SELECT
      s.label AS label,
      CASE WHEN s.predicted > 0 THEN s.tp / s.predicted ELSE CAST(0 AS DOUBLE) END AS `precision`,
      CASE WHEN s.support > 0 THEN s.tp / s.support ELSE CAST(0 AS DOUBLE) END AS recall,
      CASE
        WHEN s.support + s.predicted > 0
        THEN 2 * s.tp / (
          s.support + s.predicted
        )
        ELSE CAST(0 AS DOUBLE)
      END AS f1,
      CAST(s.support AS BIGINT) AS support
    FROM (
      SELECT
        u.label AS label,
        SUM(u.tp) AS tp,
        SUM(u.is_true) AS support,
        SUM(u.is_predicted) AS predicted
      FROM (
        SELECT
          o.true_label AS label,
          CASE
            WHEN o.true_label = o.predicted
            THEN CAST(1 AS DOUBLE)
            ELSE CAST(0 AS DOUBLE)
          END AS tp,
          CAST(1 AS DOUBLE) AS is_true,
          CAST(0 AS DOUBLE) AS is_predicted
        FROM sqlnb_outcomes_xxxxxxxx AS o
        UNION ALL
        SELECT
          o.predicted AS label,
          CAST(0 AS DOUBLE) AS tp,
          CAST(0 AS DOUBLE) AS is_true,
          CAST(1 AS DOUBLE) AS is_predicted
        FROM sqlnb_outcomes_xxxxxxxx AS o
      ) AS u
      GROUP BY
        u.label
    ) AS s
    ORDER BY
      s.label NULLS LAST
  ) AS pc
) AS f
CROSS JOIN (
  SELECT
    SUM(CAST(r.n_docs AS DOUBLE) * ABS(r.accuracy - r.confidence)) / SUM(CAST(r.n_docs AS DOUBLE)) AS ece
  FROM (
    SELECT
      b.bin AS bin,
      COUNT(*) AS n_docs,
      AVG(b.confidence) AS confidence,
      AVG(b.correct) AS accuracy
    FROM (
      SELECT
        CASE
          WHEN o.confidence >= 1
          THEN 15
          WHEN o.confidence <= 0
          THEN 0
          ELSE CAST(CEIL(o.confidence * CAST(15 AS DOUBLE)) AS INT)
        END AS bin,
        o.confidence AS confidence,
        CASE
          WHEN o.true_label = o.predicted
          THEN CAST(1 AS DOUBLE)
          ELSE CAST(0 AS DOUBLE)
        END AS correct
      FROM sqlnb_outcomes_xxxxxxxx AS o
    ) AS b
    GROUP BY
      b.bin
    ORDER BY
      b.bin NULLS LAST
  ) AS r
) AS e;
SELECT
  b.bin AS bin,
  COUNT(*) AS n_docs,
  AVG(b.confidence) AS confidence,
  AVG(b.correct) AS accuracy
FROM (
  SELECT
    CASE
      WHEN o.confidence >= 1
      THEN 15
      WHEN o.confidence <= 0
      THEN 0
      ELSE CAST(CEIL(o.confidence * CAST(15 AS DOUBLE)) AS INT)
    END AS bin,
    o.confidence AS confidence,
    CASE
      WHEN o.true_label = o.predicted
      THEN CAST(1 AS DOUBLE)
      ELSE CAST(0 AS DOUBLE)
    END AS correct
  FROM sqlnb_outcomes_xxxxxxxx AS o
) AS b
GROUP BY
  b.bin
ORDER BY
  b.bin NULLS LAST;
DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
