-- Accuracy, macro-F1, log-loss, the Brier score and the expected calibration error. The
-- log-loss clips probabilities to [eps, 1 - eps] with the double-precision epsilon, as
-- scikit-learn's log_loss. The Brier score is the mean over documents of the sum over classes of
-- (p_k - [y = k])^2 = sum p_k^2 - 2 p_true + 1 (a true label the model never saw adds 1); the
-- ECE sums over the $reliability bins n_b |accuracy_b - confidence_b| / N.
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
    AVG(CASE WHEN o.true_label = o.predicted THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END)
      AS accuracy,
    -AVG(LN(CASE
      WHEN o.p_true < 2.220446049250313e-16 THEN 2.220446049250313e-16
      WHEN o.p_true > 1 - 2.220446049250313e-16 THEN 1 - 2.220446049250313e-16
      ELSE o.p_true
    END)) AS log_loss,
    AVG(o.p_squares - 2 * o.p_true + 1) AS brier
  FROM $outcomes AS o
) AS a
CROSS JOIN (SELECT AVG(pc.f1) AS macro_f1 FROM $per_class AS pc) AS f
CROSS JOIN (
  SELECT
    SUM(CAST(r.n_docs AS DOUBLE) * ABS(r.accuracy - r.confidence))
      / SUM(CAST(r.n_docs AS DOUBLE)) AS ece
  FROM $reliability AS r
) AS e
