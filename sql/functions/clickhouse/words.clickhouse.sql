-- A text model's rows of sqlnb_ch_words: per word of model {model}, its weights and zero counts
-- per class in class order ({weights}: sql/macros/weights.sql's rows (word, class_id, weight,
-- zero)) and its idf (sqlnb_transform's, 1 for a model without a transform).
INSERT INTO sqlnb_ch_words (model, word, w, z, idf)
SELECT
  {model: String} AS model,
  w.word AS word,
  arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((w.class_id, toFloat64(w.weight))))) AS w,
  arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((w.class_id, toFloat64(w.zero))))) AS z,
  toFloat64(ifNull(any(f.idf), 1)) AS idf
FROM {weights: Identifier} AS w
LEFT JOIN (
  SELECT t.word AS word, t.idf AS idf FROM sqlnb_transform AS t WHERE t.model = {model: String}
) AS f
  ON f.word = w.word
GROUP BY w.word
