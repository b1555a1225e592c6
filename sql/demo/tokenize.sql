-- The demo's tokenizer: lowercase, split on anything but a-z, 0-9 and the apostrophe, count.
SELECT
  t.doc_id AS doc_id,
  t.word AS word,
  CAST(COUNT(*) AS INTEGER) AS count
FROM (
  SELECT d.doc_id AS doc_id, UNNEST(STRING_SPLIT_REGEX(LOWER(d.text), '[^a-z0-9'']+')) AS word
  FROM $docs AS d
) AS t
WHERE t.word <> ''
GROUP BY t.doc_id, t.word
