-- A list of $x in the order of $k (ascending, $k unique), of the rows where $where: DuckDB's
-- and PostgreSQL's ordered aggregate (NULL over no row). Spark's COLLECT_LIST keeps no order:
-- sorted.spark.sql.
SELECT LIST($x ORDER BY $k) FILTER (WHERE $where) AS listed
