-- Per (class, word) what one occurrence of a word adds to a class's joint log-likelihood, for a
-- model whose document transform is its idf alone (linear in the counts): the word's $scores
-- (class_id, word, score) times its idf.
SELECT s.class_id AS class_id, s.word AS word, s.score * f.idf AS score
FROM $scores AS s
JOIN sqlnb_transform AS f
  ON f.word = s.word
WHERE f.model = $model
