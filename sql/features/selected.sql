-- The $n best words of $scores (word, score): highest score first, ties to the word that sorts
-- last (scikit-learn's SelectKBest keeps the last columns of a stable ascending sort, and its
-- columns are the words in sorted order).
SELECT r.word AS word
FROM (
  SELECT s.word AS word, ROW_NUMBER() OVER (ORDER BY s.score DESC, s.word DESC) AS rn
  FROM $scores AS s
) AS r
WHERE r.rn <= $n
