-- sql/predict/list_sum.sql in Spark's dialect, which has no sum of an array: the sum of $term
-- over the values v of the array $list, folded from 0.
SELECT AGGREGATE($list, CAST(0 AS DOUBLE), (s, v) -> s + $term) AS total
