-- sql/multilabel/sorted.sql in Spark's dialect, whose COLLECT_LIST keeps no order: the ($k, $x)
-- pairs of the rows where $where gathered, sorted (by $k, unique) and their $x kept (an empty
-- array over no row).
SELECT TRANSFORM(ARRAY_SORT(COLLECT_LIST(STRUCT($k AS k, $x AS x)) FILTER (WHERE $where)), e -> e.x) AS listed
