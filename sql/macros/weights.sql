-- Per (word, class) of text model $model, what the SQL functions score a word by: its weight in
-- the class (for Bernoulli log theta - log(1 - theta): its rows of sqlnb_scoring's two blocks
-- added up as sqlnb.kinds.wide.parts adds them) and its number of factors of probability 0 (a
-- NULL weight adds one, a NULL log(1 - theta) takes one). $weight is the column of class c in the
-- row s, $block the first class of c's block, $row_block and $sign the block s holds and the
-- sign its weights count with (sqlnb.kinds.wide). Read by DuckDB's lookup row
-- (sql/macros/lookup.sql) and ClickHouse's per-word table (sql/functions/clickhouse/).
SELECT
  s.word AS word,
  c.class_id AS class_id,
  SUM($sign * COALESCE($weight, 0)) AS weight,
  SUM(CASE WHEN $weight IS NULL THEN $sign ELSE 0 END) AS zero
FROM sqlnb_scoring AS s
JOIN sqlnb_classes AS c
  ON $block = $row_block
WHERE s.model = $model AND c.model = $model
GROUP BY s.word, c.class_id
