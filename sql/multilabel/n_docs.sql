-- Multi-label training: the number of training documents, stored with the totals (class -1)
-- under a NULL word (no word is NULL), as a count, so that appending adds it up.
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT $model AS model, -1 AS class_id, CAST(NULL AS VARCHAR) AS word, CAST(COUNT(*) AS DOUBLE) AS count
FROM $documents AS d
