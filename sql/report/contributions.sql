-- Why each $misclassified document went wrong: per known word, its contribution to
-- log P(predicted) - log P(true), the word's score in the predicted class minus in the true
-- class, from the kind's $contributions (doc_id, class_id, feature, count, score: the
-- definition explain uses). The $top words for the prediction (positive) and the $top against
-- it (negative) of each document. A score of NULL is -infinity: infinite is 1 where only the
-- true class's score is NULL (the word rules the true class out), -1 where only the predicted
-- class's is, and the contribution is then NULL.
SELECT
  r.doc_id AS doc_id,
  r.word AS word,
  r.count AS count,
  r.contribution AS contribution,
  r.infinite AS infinite
FROM (
  SELECT
    c.doc_id AS doc_id,
    c.word AS word,
    c.count AS count,
    c.contribution AS contribution,
    c.infinite AS infinite,
    ROW_NUMBER() OVER (
      PARTITION BY c.doc_id
      ORDER BY c.infinite DESC, COALESCE(c.contribution, 0) DESC, c.word
    ) AS rn_for,
    ROW_NUMBER() OVER (
      PARTITION BY c.doc_id
      ORDER BY c.infinite, COALESCE(c.contribution, 0), c.word
    ) AS rn_against
  FROM (
    SELECT
      m.doc_id AS doc_id,
      fp.feature AS word,
      fp.count AS count,
      fp.score - ft.score AS contribution,
      CASE
        WHEN ft.score IS NULL AND fp.score IS NOT NULL THEN 1
        WHEN fp.score IS NULL AND ft.score IS NOT NULL THEN -1
        ELSE 0
      END AS infinite
    FROM $misclassified AS m
    JOIN $contributions AS fp
      ON fp.doc_id = m.doc_id AND fp.class_id = m.predicted_class_id
    JOIN $contributions AS ft
      ON ft.doc_id = m.doc_id AND ft.class_id = m.true_class_id AND ft.feature = fp.feature
  ) AS c
) AS r
WHERE (r.rn_for <= $top AND (r.infinite = 1 OR r.contribution > 0))
  OR (r.rn_against <= $top AND (r.infinite = -1 OR r.contribution < 0))
ORDER BY r.doc_id, r.rn_for
