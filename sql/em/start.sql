-- The training documents of EM's first model: the labeled ones ($labeled) and each unlabeled
-- document ($documents) once per class with weight 0: the labeled-only model over the
-- vocabulary of both.
SELECT l.doc_id AS doc_id, l.label AS label, l.weight AS weight
FROM $labeled AS l
UNION ALL
SELECT d.doc_id, k.label, CAST(0 AS DOUBLE)
FROM $documents AS d
CROSS JOIN (SELECT DISTINCT x.label AS label FROM $labeled AS x) AS k
