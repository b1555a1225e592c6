-- What is wrong with a tokens source, counted in one pass. A count that is NULL, NaN or
-- infinite fails $finite: "count * 0 = 0" on every engine, or, for a column of integers (which
-- cannot be NaN or infinite), "count IS NOT NULL". Written with COUNT so that an engine can
-- answer from the column statistics of a Parquet file or table without reading the rows.
SELECT
  COUNT(*) AS n_rows,
  COUNT(*) - COUNT(t.doc_id) AS null_doc,
  COUNT(*) - COUNT(t.word) AS null_word,
  COUNT(*) - COUNT(CASE WHEN $finite THEN 1 END) AS not_finite,
  COUNT(CASE WHEN t.count < 0 THEN 1 END) AS negative
FROM $tokens AS t
