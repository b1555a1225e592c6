-- A model's stored classes (sqlnb_classes), as sql/train/prior.sql reads them.
SELECT c.class_id AS class_id, c.label AS label, c.n_docs AS n_docs
FROM sqlnb_classes AS c
WHERE c.model = $model
