-- The one class of sql/multilabel/documents.sql: the totals are stored as class -1.
SELECT 0 AS label, -1 AS class_id
