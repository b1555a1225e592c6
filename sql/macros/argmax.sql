-- The argmax and its tie rule of sql/predict/argmax.sql over a list of per-class values in class
-- order ($values, its largest $top): the first position of the largest, the first class where
-- every value is NULL.
SELECT CASE WHEN $top IS NULL THEN 1 ELSE LIST_POSITION($values, $top) END AS position
