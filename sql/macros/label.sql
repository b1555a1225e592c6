-- The predicted class of every document of a macro's pipeline, its label as text and its
-- posterior probability.
SELECT p.doc_id AS doc_id, c.label AS label, p.proba AS proba
FROM $posterior AS p
JOIN sqlnb_classes AS c
  ON c.model = sqlnb_model AND c.class_id = p.class_id
WHERE p.rn = 1
