-- The unlabeled documents' part of EM's log-likelihood: the sum of their log-evidence, and each
-- class's share of their responsibilities (labels as text), from the E-step's $posterior.
SELECT
  CAST(p.label AS VARCHAR) AS label,
  SUM(p.proba) / (SELECT COUNT(DISTINCT q.doc_id) FROM $posterior AS q) AS share,
  (
    SELECT SUM(e.evidence)
    FROM (SELECT r.doc_id AS doc_id, MAX(r.evidence) AS evidence FROM $posterior AS r GROUP BY r.doc_id) AS e
  ) AS evidence
FROM $posterior AS p
GROUP BY p.label
ORDER BY p.label
