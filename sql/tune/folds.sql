-- Cross-validation: the labeled documents with their fold, by a hash of doc_id (DuckDB's).
SELECT l.doc_id AS doc_id, l.label AS label, l.weight AS weight, HASH(l.doc_id) % $folds AS fold
FROM $labels AS l
