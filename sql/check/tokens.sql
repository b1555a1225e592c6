-- What is wrong with a tokens source, counted in one pass. A count that is NULL, NaN or
-- infinite fails "count * 0 = 0" on every engine.
SELECT
  COUNT(*) AS n_rows,
  SUM(CASE WHEN t.doc_id IS NULL THEN 1 ELSE 0 END) AS null_doc,
  SUM(CASE WHEN t.word IS NULL THEN 1 ELSE 0 END) AS null_word,
  SUM(CASE WHEN t.count * 0 = 0 THEN 0 ELSE 1 END) AS not_finite,
  SUM(CASE WHEN t.count < 0 THEN 1 ELSE 0 END) AS negative
FROM $tokens AS t
