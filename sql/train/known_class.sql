-- One class of a training as its labels' survey read it (sql/check/survey.sql): its number,
-- its label as text and its documents' summed sample weight. A training's classes are the
-- UNION ALL of these rows: sql/train/classes.sql and sql/train/prior.sql read them, and the
-- counting joins its (label, word) sums to them, instead of reading the labels again.
SELECT
  CAST($class_id AS BIGINT) AS class_id,
  CAST($label AS VARCHAR) AS label,
  CAST($weight AS DOUBLE) AS weight
