-- The joint log-likelihood of one text in DuckDB's sqlnb_classify and sqlnb_proba, for every
-- text model: a list, one per class in class order, as sql/predict/jll.sql computes it. $tokens
-- is the text's words as a list (sqlnb.tokenizer.Tokenizer.words); l the model's lookup row
-- (sql/macros/lookup.sql). Each token is found in its hash bucket ($bucket, of the token t):
-- the bucket's first word, else (rarely: a start below 0) the bucket's other words, the next
-- ones of l.owner that bucket; found is its position in l.words, 0 for a word the model does
-- not know. A Bernoulli model (l.presence) counts a word once. $per_class is the list of the
-- classes' joint log-likelihoods from the positions found: sql/macros/counted.sql, or for a
-- model with a document transform sql/macros/transformed.sql.
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
      LAMBDA found: $per_class
    )[1]
  )[1] AS jll
