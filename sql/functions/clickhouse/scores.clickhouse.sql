-- The joint log-likelihood of one text under a text model, one per class in class order, in
-- ClickHouse's SQL functions (sqlnb_classify, sqlnb_proba; sqlnb.macros): ClickHouse's
-- functions are lambdas and take no subquery, so the model is read from dictionaries: {words},
-- per (model, word) its weights w and zero counts z per class and its idf (see words.sql), and
-- the model's row of sqlnb_ch_models ({labels}, {base}, {base_zero}, {presence}, {transformed},
-- {sublinear}, {norm_name}: model.sql), read by dictGet. {tokens} is the text's words by the
-- model's tokenizer (sqlnb.tokenizer.Tokenizer.words); a Bernoulli model ({presence}) counts a
-- word once; known are the words the model has. Each class's jll is {joint}
-- (sql/predict/joint.sql of the class's base, zero count and the words' sum sz, the variables
-- i and sz), the sums sz (weights, zero counts) are the per-class sums of the words' vectors:
-- each occurrence's, or for a model with a document transform each distinct word's {value}
-- (sql/tfidf/value.sql of its count n and idf, the variables n and w) divided by the document's
-- {norm} (sql/tfidf/norm.sql over the values x). arrayMap(name -> ..., [value])[1] names a value.
SELECT
  arrayMap(
    toks -> arrayMap(
      known -> arrayMap(
        sz -> arrayMap(i -> {joint: String}, range(1, length({labels: String}) + 1)),
        [
          if(
            {transformed: String},
            arrayMap(
              u -> arrayMap(
                x -> arrayMap(
                  norm -> (
                    if(
                      empty(u),
                      arrayWithConstant(length({labels: String}), 0.),
                      arrayReduce(
                        'sumForEach',
                        arrayMap(
                          (w, v) -> arrayMap(q -> q * v / norm, dictGet({words: String}, 'w', ({model: String}, w))),
                          u,
                          x
                        )
                      )
                    ),
                    if(
                      empty(u),
                      arrayWithConstant(length({labels: String}), 0.),
                      arrayReduce('sumForEach', arrayMap(w -> dictGet({words: String}, 'z', ({model: String}, w)), u))
                    )
                  ),
                  [{norm: String}]
                )[1],
                [arrayMap((w, n) -> {value: String}, u, arrayMap(y -> toFloat64(countEqual(known, y)), u))]
              )[1],
              [arrayDistinct(known)]
            )[1],
            (
              if(
                empty(known),
                arrayWithConstant(length({labels: String}), 0.),
                arrayReduce('sumForEach', arrayMap(t -> dictGet({words: String}, 'w', ({model: String}, t)), known))
              ),
              if(
                empty(known),
                arrayWithConstant(length({labels: String}), 0.),
                arrayReduce('sumForEach', arrayMap(t -> dictGet({words: String}, 'z', ({model: String}, t)), known))
              )
            )
          )
        ]
      )[1],
      [arrayFilter(t -> dictHas({words: String}, ({model: String}, t)), toks)]
    )[1],
    [if({presence: String}, arrayDistinct({tokens: String}), {tokens: String})]
  )[1] AS jll
