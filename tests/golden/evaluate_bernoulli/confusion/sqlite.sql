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
