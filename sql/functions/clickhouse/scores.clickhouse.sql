-- The joint log-likelihood of one text under a text model, one per class in class order, in
-- ClickHouse's SQL functions (sqlnb_classify, sqlnb_proba; sqlnb.functions): ClickHouse's
-- functions are lambdas and take no subquery, so the model is read from dictionaries: {words},
-- per (model, word) the word's key (0: a word the model does not have), {weights}, per key + i - 1
-- the word's weight w and zero count z in class i and its idf (see words.clickhouse.sql), and the
-- model's row of sqlnb_ch_models ({labels}, {base}, {base_zero}, {presence}, {zeros},
-- {transformed}, {sublinear}, {norm}: model.clickhouse.sql), read by dictGet. {tokens} is the
-- text's words by the model's tokenizer (sqlnb.tokenizer.Tokenizer.words); a Bernoulli model
-- ({presence}) counts a word once; keys are the known words'. Each class's jll is {joint}
-- (sql/predict/joint.sql of the class's base, zero count and the words' sums sz, the variables
-- i and sz): the sums of class i's weights and zero counts (those only for a model with a zero,
-- {zeros}) over each occurrence, or for a model with a document transform over each distinct
-- word, its weight times its {value} (sql/tfidf/value.sql of its count n and idf, the variables
-- n and k) divided by the document's {norm} (sql/tfidf/norm.sql over the values x).
-- arrayMap(name -> ..., [value])[1] names a value.
SELECT
  arrayMap(
    keys -> arrayMap(
      sz -> arrayMap(i -> {joint: String}, range(1, length({labels: String}) + 1)),
      [
        if(
          {transformed: String},
          arrayMap(
            u -> arrayMap(
              x -> arrayMap(
                norm -> (
                  arrayMap(
                    i -> arraySum(
                      arrayMap((k, v) -> dictGet({weights: String}, 'w', k + i - 1) * v / norm, u, x)
                    ),
                    range(1, length({labels: String}) + 1)
                  ),
                  if(
                    {zeros: String},
                    arrayMap(
                      i -> arraySum(arrayMap(k -> dictGet({weights: String}, 'z', k + i - 1), u)),
                      range(1, length({labels: String}) + 1)
                    ),
                    arrayWithConstant(length({labels: String}), 0.)
                  )
                ),
                [{norm: String}]
              )[1],
              [arrayMap((k, n) -> {value: String}, u, arrayMap(y -> toFloat64(countEqual(keys, y)), u))]
            )[1],
            [arrayDistinct(keys)]
          )[1],
          (
            arrayMap(
              i -> arraySum(arrayMap(k -> dictGet({weights: String}, 'w', k + i - 1), keys)),
              range(1, length({labels: String}) + 1)
            ),
            if(
              {zeros: String},
              arrayMap(
                i -> arraySum(arrayMap(k -> dictGet({weights: String}, 'z', k + i - 1), keys)),
                range(1, length({labels: String}) + 1)
              ),
              arrayWithConstant(length({labels: String}), 0.)
            )
          )
        )
      ]
    )[1],
    [
      arrayFilter(
        k -> k > 0,
        arrayMap(
          t -> dictGetOrDefault({words: String}, 'key', ({model: String}, t), toUInt64(0)),
          if({presence: String}, arrayDistinct({tokens: String}), {tokens: String})
        )
      )
    ]
  )[1] AS jll
