-- The $n-grams of a list of tokens k (sql/tokenize/list.sql), as ngrams.sql builds them: each
-- token joined by one space to the next n - 1 tokens.
SELECT
  LIST_TRANSFORM(RANGE(1, LEN(k) - $n + 2), LAMBDA i: ARRAY_TO_STRING(k[i:i + $n - 1], ' ')) AS grams
