-- The joint log-likelihood of one text in DuckDB's sqlnb_classify and sqlnb_proba, for every
-- text model: a list, one per class in class order, as sql/predict/jll.sql computes it. $tokens
-- is the text's words as a list (sqlnb.tokenizer.Tokenizer.words); l the model's lookup row
-- (sql/macros/lookup.sql). Each token is found in its hash bucket ($bucket, of the token t):
-- the bucket's first word, else (rarely: a start below 0) the bucket's other words, the next
-- ones of l.owner that bucket; found is its position in l.words, 0 for a word the model does
-- not know. A Bernoulli model (l.presence) counts a word once. A class's jll ($counted) is the
-- rule of sql/predict/joint.sql over its terms (sql/macros/terms.sql): its base plus its
-- weights of the words found. A model with a document transform (l.transformed) scores each
-- distinct word found once, by its count transformed as sql/tfidf/transform.sql transforms it
-- ($transformed).
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
      LAMBDA found: CASE
        WHEN l.transformed
          THEN LIST_TRANSFORM(
            [LIST_AGGREGATE(LIST_FILTER(found, LAMBDA f: f > 0), 'histogram')],
            LAMBDA h: LIST_TRANSFORM(
              [
                LIST_TRANSFORM(
                  RANGE(1, LEN(MAP_KEYS(h)) + 1),
                  LAMBDA i: CASE
                    WHEN l.sublinear THEN 1 + LN(MAP_VALUES(h)[i])
                    ELSE MAP_VALUES(h)[i]
                  END * l.idf[MAP_KEYS(h)[i]]
                )
              ],
              LAMBDA x: LIST_TRANSFORM(
                [
                  COALESCE(
                    NULLIF(
                      CASE
                        WHEN l.norm = 'l1' THEN LIST_SUM(LIST_TRANSFORM(x, LAMBDA v: ABS(v)))
                        WHEN l.norm = 'l2' THEN SQRT(LIST_SUM(LIST_TRANSFORM(x, LAMBDA v: v * v)))
                        ELSE 1
                      END,
                      0
                    ),
                    1
                  )
                ],
                LAMBDA norm: LIST_TRANSFORM(RANGE(1, LEN(l.labels) + 1), LAMBDA c: $transformed)
              )[1]
            )[1]
          )[1]
        ELSE LIST_TRANSFORM(RANGE(1, LEN(l.labels) + 1), LAMBDA c: $counted)
      END
    )[1]
  )[1] AS jll
