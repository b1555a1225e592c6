-- The n-grams of a list of tokens k (sql/tokenize/list.sql), as ngrams.sql builds them: at each
-- position i up to the n-th last, $gram, the token k[i] joined by one space to the next n - 1.
SELECT LIST_TRANSFORM(RANGE(1, LEN(k) - $n + 2), LAMBDA i: $gram) AS grams
