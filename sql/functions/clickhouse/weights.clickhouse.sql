-- A text model's rows of sqlnb_ch_weights: per word of model {model} and class (of {weights}:
-- sql/macros/weights.sql's rows (word, class_id, weight, zero), class ids 0, 1, ...) at the
-- word's key (sqlnb_ch_words) + class_id, the word's weight and zero count in the class and its
-- idf (sqlnb_transform's, 1 for a model without a transform).
INSERT INTO sqlnb_ch_weights (model, key, w, z, idf)
SELECT
  {model: String} AS model,
  k.key + toUInt64(w.class_id) AS key,
  toFloat64(w.weight) AS w,
  toFloat64(w.zero) AS z,
  toFloat64(ifNull(f.idf, 1)) AS idf
FROM {weights: Identifier} AS w
JOIN (SELECT c.word AS word, c.key AS key FROM sqlnb_ch_words AS c WHERE c.model = {model: String}) AS k
  ON k.word = w.word
LEFT JOIN (
  SELECT t.word AS word, t.idf AS idf FROM sqlnb_transform AS t WHERE t.model = {model: String}
) AS f
  ON f.word = w.word
