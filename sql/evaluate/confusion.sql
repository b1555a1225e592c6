-- The confusion matrix as (true, predicted, count) rows.
SELECT
  o.true_label AS true_label,
  o.predicted AS predicted,
  COUNT(*) AS count
FROM $outcomes AS o
GROUP BY o.true_label, o.predicted
ORDER BY o.true_label, o.predicted
