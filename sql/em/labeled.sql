-- The labeled documents' part of EM's log-likelihood: sum over them of their weight times the
-- joint log-likelihood of their own class ($truth: doc_id, label, weight; $posterior: the
-- prediction pipeline's). A document whose class has probability 0 makes it NULL.
SELECT SUM(y.weight * p.jll) AS labeled
FROM $posterior AS p
JOIN $truth AS y
  ON y.doc_id = p.doc_id
JOIN (SELECT class_id, label FROM sqlnb_classes WHERE model = $model) AS c
  ON c.class_id = p.class_id AND c.label = CAST(y.label AS VARCHAR)
