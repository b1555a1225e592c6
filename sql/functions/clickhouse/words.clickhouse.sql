-- A text model's rows of sqlnb_ch_words: per word of model {model} (sqlnb_scoring's) its key,
-- the first of the model's {classes} consecutive keys of its weights in sqlnb_ch_weights (class
-- i's: key + i - 1; the model's keys follow every key the table holds, so they are no other
-- model's, and 0 is no word's).
INSERT INTO sqlnb_ch_words (model, word, key)
SELECT
  {model: String} AS model,
  w.word AS word,
  toUInt64((SELECT max(g.key) FROM sqlnb_ch_weights AS g) + 1
    + (row_number() OVER (ORDER BY w.word) - 1) * {classes: String}) AS key
FROM (SELECT DISTINCT s.word AS word FROM sqlnb_scoring AS s WHERE s.model = {model: String}) AS w
