-- Tokenizing, step 1: every match of the token pattern in a document's text, with its position.
-- $text is the text column, lowercased when the tokenizer lowercases; $pattern a regular
-- expression (RE2 syntax). A NULL or empty text has no match. With $simple (the default
-- pattern), a text of only letters, digits and spaces is split at its spaces instead: the same
-- tokens (the empty strings between spaces are dropped later), several times faster.
SELECT
  m.doc_id AS doc_id,
  UNNEST(m.tokens) AS token,
  GENERATE_SUBSCRIPTS(m.tokens, 1) AS pos
FROM (
  SELECT
    x.doc_id AS doc_id,
    CASE
      WHEN $simple AND REGEXP_FULL_MATCH(x.text, '[\pL\pN ]*') THEN STRING_SPLIT(x.text, ' ')
      ELSE REGEXP_EXTRACT_ALL(x.text, $pattern)
    END AS tokens
  FROM (SELECT $id AS doc_id, $text AS text FROM $source AS s) AS x
) AS m
