-- The classes of a training (sql/input/classes.sql's), their labels as text, as the labels'
-- survey reads them (sql/train/known_class.sql): what the counting of tokens that carry their
-- label joins its sums by label to.
SELECT CAST(c.label AS VARCHAR) AS label, c.class_id AS class_id
FROM $classes AS c
