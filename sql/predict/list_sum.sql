-- The sum of $term over the values v of the list $list (sql/predict/decided.sql's log-sum-exp);
-- ClickHouse's generator writes it as arraySum over arrayMap. Spark: list_sum.spark.sql.
SELECT LIST_SUM(LIST_TRANSFORM($list, LAMBDA v: $term)) AS total
