-- Whether a training learns a word: one token row of a labeled document with a positive
-- count, as the counts read them (sql/multinomial/count.sql, sql/bernoulli/count.sql); LIMIT 1,
-- so the engine stops at the first. Read before a Spark write keeps the word tables in their
-- own overwrites (sqlnb/keeping.py), which leave a partition the rows do not name as it is:
-- a training without a word is refused before it writes.
SELECT 1 AS found
FROM $tokens AS t
JOIN $labels AS l
  ON l.doc_id = t.doc_id
WHERE t.count > 0
LIMIT 1
