SELECT
  s.label AS label,
  CASE WHEN s.predicted > 0 THEN s.tp / s.predicted ELSE CAST(0 AS FLOAT64) END AS `precision`,
  CASE WHEN s.support > 0 THEN s.tp / s.support ELSE CAST(0 AS FLOAT64) END AS recall,
  CASE
    WHEN s.support + s.predicted > 0
    THEN 2 * s.tp / (
      s.support + s.predicted
    )
    ELSE CAST(0 AS FLOAT64)
  END AS f1,
  CAST(s.support AS INT64) AS support
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
        THEN CAST(1 AS FLOAT64)
        ELSE CAST(0 AS FLOAT64)
      END AS tp,
      CAST(1 AS FLOAT64) AS is_true,
      CAST(0 AS FLOAT64) AS is_predicted
    FROM sqlnb_outcomes_xxxxxxxx AS o
    UNION ALL
    SELECT
      o.predicted AS label,
      CAST(0 AS FLOAT64) AS tp,
      CAST(0 AS FLOAT64) AS is_true,
      CAST(1 AS FLOAT64) AS is_predicted
    FROM sqlnb_outcomes_xxxxxxxx AS o
  ) AS u
  GROUP BY
    u.label
) AS s
ORDER BY
  s.label NULLS LAST;
