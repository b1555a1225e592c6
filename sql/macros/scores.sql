-- The joint log-likelihood of one text in DuckDB's sqlnb_classify and sqlnb_proba, for every
-- text model: a list, one per class in class order, as sql/predict/jll.sql computes it. $tokens
-- is the text's words as a list (sqlnb.tokenizer.Tokenizer.words); l the model's lookup row
-- (sql/macros/lookup.sql). Each token is found in its hash bucket ($bucket, of the token t):
-- the bucket's first word, else (rarely: a start below 0) the bucket's other words, the next
-- ones of l.owner that bucket; found is its position in l.words, 0 for a word the model does
-- not know. A Bernoulli model (l.presence) counts a word once. A class's jll is its base plus
-- its weights of the words found, NULL (-infinity) where the base is undefined or a factor of
-- probability 0 remains.
-- LIST_TRANSFORM([value], LAMBDA name: ...)[1] names a value once (DuckDB has no LET); $bucket
-- is written out where it is used instead: a name for each token costs more than hashing again.
SELECT
  LIST_TRANSFORM(
    [CASE WHEN l.presence THEN LIST_DISTINCT($tokens) ELSE $tokens END],
    LAMBDA toks: LIST_TRANSFORM(
      [
        LIST_TRANSFORM(
          toks,
          LAMBDA t: CASE
            WHEN l.words[ABS(l.start[$bucket])] = t THEN ABS(l.start[$bucket])
            WHEN l.start[$bucket] < 0
              THEN COALESCE(
                LIST_FILTER(
                  RANGE(1 - l.start[$bucket], l.longest - l.start[$bucket]),
                  LAMBDA i: l.owner[i] = $bucket AND l.words[i] = t
                )[1],
                0
              )
            ELSE 0
          END
        )
      ],
      LAMBDA found: LIST_TRANSFORM(
        RANGE(1, LEN(l.labels) + 1),
        LAMBDA c: CASE
          WHEN l.base[c] IS NULL
            OR l.zeros
            AND l.base_zero[c] + COALESCE(LIST_SUM(LIST_SELECT(l.zero[c], found)), 0) > 0
            THEN NULL
          ELSE l.base[c] + COALESCE(LIST_SUM(LIST_SELECT(l.weight[c], found)), 0)
        END
      )
    )[1]
  )[1] AS jll
