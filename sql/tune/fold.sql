-- Cross-validation: the labeled documents of fold $fold when $test, else those of every other
-- fold (the fold's training part).
SELECT l.doc_id AS doc_id, l.label AS label, l.weight AS weight
FROM $labels AS l
WHERE (l.fold = $fold) = $test
