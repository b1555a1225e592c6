-- Tokenizing, step 1: every match of the token pattern in a document's text, with its position.
-- $text is the text column, lowercased when the tokenizer lowercases; $pattern a regular
-- expression (RE2 syntax). A NULL or empty text has no match.
SELECT
  m.doc_id AS doc_id,
  UNNEST(m.tokens) AS token,
  GENERATE_SUBSCRIPTS(m.tokens, 1) AS pos
FROM (
  SELECT $id AS doc_id, REGEXP_EXTRACT_ALL($text, $pattern) AS tokens FROM $source AS s
) AS m
