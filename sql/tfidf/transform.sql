-- A document transform, as scikit-learn's TfidfTransformer: each document's count of a word
-- known to $frequencies (model, word, idf, sublinear, norm: sql/tfidf/frequencies.sql, or the
-- model's sqlnb_transform rows) becomes its $value (sql/tfidf/value.sql of x.count), divided
-- by the document's $norm over its known words (sql/tfidf/norm.sql of x.value, summed over the
-- document). $tokens is (doc_id, word, count); words the model does not know are left out, as
-- scikit-learn's vocabulary leaves them out before the transform.
SELECT
  x.doc_id AS doc_id,
  x.word AS word,
  x.value / $norm AS count
FROM (
  SELECT
    t.doc_id AS doc_id,
    t.word AS word,
    $value AS value,
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
