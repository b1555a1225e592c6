-- Per (word, class) of text model $model, what the SQL functions score a word by: its weight in
-- the class (for Bernoulli log theta - log(1 - theta): its rows of sqlnb_scoring's two blocks
-- added up as sqlnb.kinds.wide.parts adds them) and its number of factors of probability 0 (a
-- NULL weight adds one, a NULL log(1 - theta) takes one). The rows are added up per word and
-- block first (a group per 8 classes), then each class takes its column: $weight and $zero are
-- the columns w<j> and z<j> of class c in the row s, $block the first class of c's block,
-- $row_block and $sign the block a row of sqlnb_scoring holds and the sign its weights count with
-- (sqlnb.kinds.wide); $wanted whether to read them at all (a macro builds the lookup row only
-- of a model without a stored one). Read by DuckDB's lookup row (sql/macros/lookup.sql) and
-- ClickHouse's per-word table (sql/functions/clickhouse/).
SELECT
  s.word AS word,
  c.class_id AS class_id,
  $weight AS weight,
  $zero AS zero
FROM (
  SELECT
    r.word AS word,
    $row_block AS base,
    SUM($sign * COALESCE(r.w0, 0)) AS w0,
    SUM(CASE WHEN r.w0 IS NULL THEN $sign ELSE 0 END) AS z0,
    SUM($sign * COALESCE(r.w1, 0)) AS w1,
    SUM(CASE WHEN r.w1 IS NULL THEN $sign ELSE 0 END) AS z1,
    SUM($sign * COALESCE(r.w2, 0)) AS w2,
    SUM(CASE WHEN r.w2 IS NULL THEN $sign ELSE 0 END) AS z2,
    SUM($sign * COALESCE(r.w3, 0)) AS w3,
    SUM(CASE WHEN r.w3 IS NULL THEN $sign ELSE 0 END) AS z3,
    SUM($sign * COALESCE(r.w4, 0)) AS w4,
    SUM(CASE WHEN r.w4 IS NULL THEN $sign ELSE 0 END) AS z4,
    SUM($sign * COALESCE(r.w5, 0)) AS w5,
    SUM(CASE WHEN r.w5 IS NULL THEN $sign ELSE 0 END) AS z5,
    SUM($sign * COALESCE(r.w6, 0)) AS w6,
    SUM(CASE WHEN r.w6 IS NULL THEN $sign ELSE 0 END) AS z6,
    SUM($sign * COALESCE(r.w7, 0)) AS w7,
    SUM(CASE WHEN r.w7 IS NULL THEN $sign ELSE 0 END) AS z7
  FROM sqlnb_scoring AS r
  WHERE r.model = $model AND $wanted
  GROUP BY r.word, $row_block
) AS s
JOIN sqlnb_classes AS c
  ON $block = s.base
WHERE c.model = $model
