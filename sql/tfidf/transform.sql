-- A document transform, as scikit-learn's TfidfTransformer: each document's count of a word
-- known to $frequencies (model, word, idf, sublinear, norm: sql/tfidf/frequencies.sql, or the
-- model's sqlnb_transform rows) becomes count (1 + ln(count) where sublinear) times idf, then
-- divided by the document's norm over its known words: 'l1' the sum of their absolute values,
-- 'l2' the square root of the sum of their squares (a norm of 0 leaves the values as they are).
-- $tokens is (doc_id, word, count); words the model does not know are left out, as
-- scikit-learn's vocabulary leaves them out before the transform.
SELECT
  x.doc_id AS doc_id,
  x.word AS word,
  x.value / COALESCE(
    NULLIF(
      CASE
        WHEN x.norm = 'l1' THEN SUM(ABS(x.value)) OVER (PARTITION BY x.doc_id)
        WHEN x.norm = 'l2' THEN SQRT(SUM(x.value * x.value) OVER (PARTITION BY x.doc_id))
        ELSE 1
      END,
      0
    ),
    1
  ) AS count
FROM (
  SELECT
    t.doc_id AS doc_id,
    t.word AS word,
    CASE WHEN f.sublinear THEN 1 + LN(t.count) ELSE t.count END * f.idf AS value,
    f.norm AS norm
  FROM (
    SELECT g.doc_id AS doc_id, g.word AS word, SUM(g.count) AS count
    FROM $tokens AS g
    GROUP BY g.doc_id, g.word
    HAVING SUM(g.count) > 0
  ) AS t
  JOIN $frequencies AS f
    ON f.word = t.word
  WHERE f.model = $model
) AS x
