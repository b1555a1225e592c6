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
        THEN CAST(1 AS DOUBLE PRECISION)
        ELSE CAST(0 AS DOUBLE PRECISION)
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
      CASE
        WHEN s.predicted > 0
        THEN CAST(s.tp AS DOUBLE PRECISION) / s.predicted
        ELSE CAST(0 AS DOUBLE PRECISION)
      END AS "precision",
      CASE
        WHEN s.support > 0
        THEN CAST(s.tp AS DOUBLE PRECISION) / s.support
        ELSE CAST(0 AS DOUBLE PRECISION)
      END AS recall,
      CASE
        WHEN s.support + s.predicted > 0
        THEN CAST(2 * s.tp AS DOUBLE PRECISION) / (
          s.support + s.predicted
        )
        ELSE CAST(0 AS DOUBLE PRECISION)
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
            THEN CAST(1 AS DOUBLE PRECISION)
            ELSE CAST(0 AS DOUBLE PRECISION)
          END AS tp,
          CAST(1 AS DOUBLE PRECISION) AS is_true,
          CAST(0 AS DOUBLE PRECISION) AS is_predicted
        FROM sqlnb_outcomes_xxxxxxxx AS o
        UNION ALL
        SELECT
          o.predicted AS label,
          CAST(0 AS DOUBLE PRECISION) AS tp,
          CAST(0 AS DOUBLE PRECISION) AS is_true,
          CAST(1 AS DOUBLE PRECISION) AS is_predicted
        FROM sqlnb_outcomes_xxxxxxxx AS o
      ) AS u
      GROUP BY
        u.label
    ) AS s
    ORDER BY
      s.label
  ) AS pc
) AS f
CROSS JOIN (
  SELECT
    CAST(SUM(CAST(r.n_docs AS DOUBLE PRECISION) * ABS(r.accuracy - r.confidence)) AS DOUBLE PRECISION) / SUM(CAST(r.n_docs AS DOUBLE PRECISION)) AS ece
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
          ELSE CAST(CEIL(o.confidence * CAST(15 AS DOUBLE PRECISION)) AS INT)
        END AS bin,
        o.confidence AS confidence,
        CASE
          WHEN o.true_label = o.predicted
          THEN CAST(1 AS DOUBLE PRECISION)
          ELSE CAST(0 AS DOUBLE PRECISION)
        END AS correct
      FROM sqlnb_outcomes_xxxxxxxx AS o
    ) AS b
    GROUP BY
      b.bin
    ORDER BY
      b.bin
  ) AS r
) AS e;
