-- Accuracy, macro-F1 and log-loss. The log-loss clips probabilities to [eps, 1 - eps] with the
-- double-precision epsilon, as scikit-learn's log_loss.
SELECT
  a.n_docs AS n_docs,
  a.accuracy AS accuracy,
  f.macro_f1 AS macro_f1,
  a.log_loss AS log_loss
FROM (
  SELECT
    COUNT(*) AS n_docs,
    AVG(CASE WHEN o.true_label = o.predicted THEN CAST(1 AS DOUBLE) ELSE CAST(0 AS DOUBLE) END)
      AS accuracy,
    -AVG(LN(CASE
      WHEN o.p_true < 2.220446049250313e-16 THEN 2.220446049250313e-16
      WHEN o.p_true > 1 - 2.220446049250313e-16 THEN 1 - 2.220446049250313e-16
      ELSE o.p_true
    END)) AS log_loss
  FROM $outcomes AS o
) AS a
CROSS JOIN (SELECT AVG(pc.f1) AS macro_f1 FROM $per_class AS pc) AS f
