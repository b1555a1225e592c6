-- sqlnb_classify(model, text): the label of raw text, tokenized with the model's own settings,
-- as a lambda over the dictionaries (sqlnb/functions/clickhouse.py); an unknown name, or a
-- model without a tokenizer, raises an error.
CREATE OR REPLACE FUNCTION sqlnb_classify AS (sqlnb_model, sqlnb_text) -> CASE
  WHEN throwIf(
    NOT dictHas('sqlnb_ch_models_dict', sqlnb_model),
    'label: no text model of that name in this database'
  ) = 0
  AND throwIf(
    dictGet('sqlnb_ch_models_dict', 'settings', sqlnb_model) = '',
    'the model has no tokenizer (it was not trained from text): classify its tokens with sqlnb predict'
  ) = 0
  THEN arrayMap(
    j -> arrayMap(
      top -> dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)[CASE WHEN top IS NULL THEN 1 ELSE indexOf(j, top) END],
      [arrayMax(j)]
    )[1],
    [
      arrayMap(
        keys -> arrayMap(
          sz -> arrayMap(
            i -> CASE
              WHEN dictGet('sqlnb_ch_models_dict', 'base', sqlnb_model)[i] IS NULL
              OR dictGet('sqlnb_ch_models_dict', 'base_zero', sqlnb_model)[i] + tupleElement(sz, 2)[i] > 0
              THEN NULL
              ELSE dictGet('sqlnb_ch_models_dict', 'base', sqlnb_model)[i] + tupleElement(sz, 1)[i]
            END,
            range(1, length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)) + 1)
          ),
          [
            CASE
              WHEN dictGet('sqlnb_ch_models_dict', 'transformed', sqlnb_model)
              THEN arrayMap(
                u -> arrayMap(
                  x -> arrayMap(
                    norm -> (
                      arrayMap(
                        i -> arraySum(
                          arrayMap((k, v) -> dictGet('sqlnb_ch_weights_dict', 'w', k + i - 1) * v / norm, u, x)
                        ),
                        range(1, length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)) + 1)
                      ),
                      CASE
                        WHEN dictGet('sqlnb_ch_models_dict', 'zeros', sqlnb_model)
                        THEN arrayMap(
                          i -> arraySum(arrayMap(k -> dictGet('sqlnb_ch_weights_dict', 'z', k + i - 1), u)),
                          range(1, length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)) + 1)
                        )
                        ELSE arrayWithConstant(length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)), 0.)
                      END
                    ),
                    [
                      COALESCE(
                        nullIf(
                          CASE
                            WHEN dictGet('sqlnb_ch_models_dict', 'norm', sqlnb_model) = 'l1'
                            THEN arraySum(v -> ABS(v), x)
                            WHEN dictGet('sqlnb_ch_models_dict', 'norm', sqlnb_model) = 'l2'
                            THEN SQRT(arraySum(v -> v * v, x))
                            ELSE 1
                          END,
                          0
                        ),
                        1
                      )
                    ]
                  )[1],
                  [
                    arrayMap(
                      (k, n) -> CASE
                        WHEN dictGet('sqlnb_ch_models_dict', 'sublinear', sqlnb_model)
                        THEN 1 + LN(n)
                        ELSE n
                      END * dictGet('sqlnb_ch_weights_dict', 'idf', k),
                      u,
                      arrayMap(y -> toFloat64(countEqual(keys, y)), u)
                    )
                  ]
                )[1],
                [arrayDistinct(keys)]
              )[1]
              ELSE (
                arrayMap(
                  i -> arraySum(arrayMap(k -> dictGet('sqlnb_ch_weights_dict', 'w', k + i - 1), keys)),
                  range(1, length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)) + 1)
                ),
                CASE
                  WHEN dictGet('sqlnb_ch_models_dict', 'zeros', sqlnb_model)
                  THEN arrayMap(
                    i -> arraySum(arrayMap(k -> dictGet('sqlnb_ch_weights_dict', 'z', k + i - 1), keys)),
                    range(1, length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)) + 1)
                  )
                  ELSE arrayWithConstant(length(dictGet('sqlnb_ch_models_dict', 'labels', sqlnb_model)), 0.)
                END
              )
            END
          ]
        )[1],
        [
          arrayFilter(
            k -> k > 0,
            arrayMap(
              t -> dictGetOrDefault('sqlnb_ch_words_dict', 'key', (sqlnb_model, t), toUInt64(0)),
              CASE
                WHEN dictGet('sqlnb_ch_models_dict', 'presence', sqlnb_model)
                THEN arrayDistinct(
                  CASE
                    WHEN dictGet('sqlnb_ch_models_dict', 'settings', sqlnb_model) = '{"lowercase": true, "ngrams": [1, 1], "pattern": "[\\\\pL\\\\pN]+(?:''[\\\\pL\\\\pN]+)*", "stop_words": []}'
                    THEN arrayMap(
                      k -> k,
                      [
                        arrayFilter(
                          t -> t <> '' AND TRUE,
                          CASE
                            WHEN TRUE
                            AND match(lowerUTF8(REPLACE(REPLACE(sqlnb_text, 'İ', 'i'), 'Σ', 'σ')), '^(?:[\\pL\\pN ]*)$')
                            THEN splitByString(' ', lowerUTF8(REPLACE(REPLACE(sqlnb_text, 'İ', 'i'), 'Σ', 'σ')))
                            ELSE extractAll(
                              lowerUTF8(REPLACE(REPLACE(sqlnb_text, 'İ', 'i'), 'Σ', 'σ')),
                              '[\\pL\\pN]+(?:''[\\pL\\pN]+)*'
                            )
                          END
                        )
                      ]
                    )[1]
                    ELSE []
                  END
                )
                ELSE CASE
                  WHEN dictGet('sqlnb_ch_models_dict', 'settings', sqlnb_model) = '{"lowercase": true, "ngrams": [1, 1], "pattern": "[\\\\pL\\\\pN]+(?:''[\\\\pL\\\\pN]+)*", "stop_words": []}'
                  THEN arrayMap(
                    k -> k,
                    [
                      arrayFilter(
                        t -> t <> '' AND TRUE,
                        CASE
                          WHEN TRUE
                          AND match(lowerUTF8(REPLACE(REPLACE(sqlnb_text, 'İ', 'i'), 'Σ', 'σ')), '^(?:[\\pL\\pN ]*)$')
                          THEN splitByString(' ', lowerUTF8(REPLACE(REPLACE(sqlnb_text, 'İ', 'i'), 'Σ', 'σ')))
                          ELSE extractAll(
                            lowerUTF8(REPLACE(REPLACE(sqlnb_text, 'İ', 'i'), 'Σ', 'σ')),
                            '[\\pL\\pN]+(?:''[\\pL\\pN]+)*'
                          )
                        END
                      )
                    ]
                  )[1]
                  ELSE []
                END
              END
            )
          )
        ]
      )[1]
    ]
  )[1]
  ELSE NULL
END;
