-- Vocabulary pruning at training time, as scikit-learn's CountVectorizer: keep the words whose
-- document frequency is within [$min_df, $max_df] (numbers of documents: a fraction is bound as
-- fraction * the number of training documents), then at most $max_features of them, the most
-- frequent over the corpus (ties to the word that sorts first).
SELECT t.doc_id AS doc_id, t.word AS word, t.count AS count
FROM $tokens AS t
JOIN (
  SELECT r.word AS word
  FROM (
    SELECT
      f.word AS word,
      ROW_NUMBER() OVER (ORDER BY f.tf DESC, f.word) AS rn
    FROM (
      SELECT x.word AS word, COUNT(DISTINCT x.doc_id) AS df, SUM(x.count) AS tf
      FROM $tokens AS x
      WHERE x.count > 0
      GROUP BY x.word
    ) AS f
    WHERE f.df >= $min_df AND f.df <= $max_df
  ) AS r
  WHERE r.rn <= $max_features
) AS v
  ON v.word = t.word
