-- A text model's weights as sql/macros/weights.sql gives them, (word, class_id, weight, zero),
-- read back from its rows of sqlnb_ch_words and sqlnb_ch_weights (written just before it:
-- words.clickhouse.sql, weights.clickhouse.sql; class i of {classes} at the word's key + i):
-- the lookup row's weights where ClickHouse builds its model row (model.clickhouse.sql),
-- instead of adding sqlnb_scoring's rows up again in each place the row reads them.
SELECT c.word AS word, toInt64(g.key - c.key) AS class_id, g.w AS weight, g.z AS zero
FROM (
  SELECT s.word AS word, s.key AS key, s.key + arrayJoin(range(toUInt64({classes: String}))) AS k
  FROM sqlnb_ch_words AS s WHERE s.model = {model: String}
) AS c
JOIN (SELECT v.key AS key, v.w AS w, v.z AS z FROM sqlnb_ch_weights AS v WHERE v.model = {model: String}) AS g
  ON g.key = c.k
