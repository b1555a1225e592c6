-- The classes of a training: its distinct labels numbered 0, 1, ... in sorted order of the
-- labels' own type, as scikit-learn's classes_.
SELECT v.label AS label, DENSE_RANK() OVER (ORDER BY v.label) - 1 AS class_id
FROM (SELECT DISTINCT x.label AS label FROM $labels AS x) AS v
