-- Appending to a multi-label model: its totals (class -1: per word, and the documents under a
-- NULL word) and the batch's added up under $merged (sql/append/word_counts.sql merges the
-- labels' counts; it joins them to the classes, which the totals are not among).
INSERT INTO sqlnb_word_counts (model, class_id, word, count)
SELECT $merged AS model, -1 AS class_id, w.word AS word, SUM(w.count) AS count
FROM sqlnb_word_counts AS w
WHERE (w.model = $model OR w.model = $batch) AND w.class_id = -1
GROUP BY w.word
