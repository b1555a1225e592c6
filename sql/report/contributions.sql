-- Why each $misclassified document went wrong: per known word, its contribution to
-- log P(predicted) - log P(true), count * (weight[predicted] - weight[true]) with the $weights
-- of sql/report/weights*.sql (with $binary, a present word counts 1, as in Bernoulli). The $top
-- words for the prediction (positive) and the $top against it (negative) of each document.
-- A weight of NULL is -infinity: infinite is 1 where only the true class's weight is NULL (the
-- word rules the true class out), -1 where only the predicted class's is, and the contribution
-- is then NULL.
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
      t.word AS word,
      t.count AS count,
      CASE WHEN $binary THEN CAST(1 AS DOUBLE) ELSE t.count END
        * (wp.weight - wt.weight) AS contribution,
      CASE
        WHEN wt.weight IS NULL AND wp.weight IS NOT NULL THEN 1
        WHEN wp.weight IS NULL AND wt.weight IS NOT NULL THEN -1
        ELSE 0
      END AS infinite
    FROM $misclassified AS m
    JOIN (
      SELECT x.doc_id AS doc_id, x.word AS word, SUM(x.count) AS count
      FROM $tokens AS x
      GROUP BY x.doc_id, x.word
      HAVING SUM(x.count) > 0
    ) AS t
      ON t.doc_id = m.doc_id
    JOIN $weights AS wp
      ON wp.class_id = m.predicted_class_id AND wp.word = t.word
    JOIN $weights AS wt
      ON wt.class_id = m.true_class_id AND wt.word = t.word
  ) AS c
) AS r
WHERE (r.rn_for <= $top AND (r.infinite = 1 OR r.contribution > 0))
  OR (r.rn_against <= $top AND (r.infinite = -1 OR r.contribution < 0))
ORDER BY r.doc_id, r.rn_for
