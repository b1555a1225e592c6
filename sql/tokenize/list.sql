-- Tokenizing one text in one expression, for DuckDB's sqlnb_classify and sqlnb_proba: its words
-- as a list, by the rules of matches.sql, words.sql, kept.sql and ngrams.sql. $text is the text
-- (lowercased when the tokenizer lowercases), $pattern the token pattern, $simple whether it is
-- the default pattern (then a text of letters, digits and spaces is split at its spaces, as in
-- matches.sql); empty tokens and, where n-grams are built, the stop words ($kept, a condition on
-- the token t) are dropped; $words the words of the kept tokens k: k itself for words alone,
-- else its n-grams (list_grams.sql).
SELECT
  LIST_TRANSFORM(
    [
      LIST_FILTER(
        CASE
          WHEN $simple AND REGEXP_FULL_MATCH($text, '[\pL\pN ]*') THEN STRING_SPLIT($text, ' ')
          ELSE REGEXP_EXTRACT_ALL($text, $pattern)
        END,
        LAMBDA t: t <> '' AND $kept
      )
    ],
    LAMBDA k: $words
  )[1] AS words
