-- The training documents of the next M-step: the labeled ones with their weights ($labeled:
-- doc_id, label, weight) and each unlabeled document once per class with weight $lambda times
-- its responsibility ($posterior, sql/em/posterior.sql), as Nigam et al. (2000).
SELECT l.doc_id AS doc_id, l.label AS label, l.weight AS weight
FROM $labeled AS l
UNION ALL
SELECT p.doc_id, p.label, $lambda * p.proba
FROM $posterior AS p
