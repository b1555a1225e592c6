-- The predicted class of every document of a macro's pipeline, its label as text and its
-- posterior probability. (The model in WHERE, not in ON: Spark refuses a function's
-- parameter in a join condition.)
SELECT p.doc_id AS doc_id, c.label AS label, p.proba AS proba
FROM $posterior AS p
JOIN sqlnb_classes AS c
  ON c.class_id = p.class_id
WHERE c.model = sqlnb_model AND p.rn = 1
