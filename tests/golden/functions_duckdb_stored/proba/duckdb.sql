CREATE OR REPLACE MACRO sqlnb_proba(
    sqlnb_model,
    sqlnb_text
) AS
(
  CASE
    WHEN sqlnb_model IS NULL
    THEN ERROR('the model name is NULL')
    WHEN NOT EXISTS(
      SELECT
        1
      FROM sqlnb_models AS m
      WHERE
        m.model = sqlnb_model
    )
    THEN ERROR('no model named ''' || sqlnb_model || ''' in this database')
    WHEN NOT EXISTS(
      SELECT
        1
      FROM "sqlnb_tokenizers" AS n
      WHERE
        n.model = sqlnb_model
    )
    THEN ERROR(
      'model ''' || sqlnb_model || ''' ' || 'has no tokenizer (it was not trained from text): classify its tokens with sqlnb_predict'
    )
    ELSE (
      (
        SELECT
          LIST_TRANSFORM(
            [
              LIST_TRANSFORM(
                [CASE WHEN l.presence THEN LIST_DISTINCT(l.sqlnb_tokens) ELSE l.sqlnb_tokens END],
                LAMBDA toks : LIST_TRANSFORM(
                  [
                    LIST_TRANSFORM(
                      toks,
                      LAMBDA t : CASE
                        WHEN l.words[ABS(l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1])] = t
                        THEN ABS(l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1])
                        WHEN l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1] < 0
                        THEN COALESCE(
                          LIST_FILTER(
                            RANGE(
                              1 - l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1],
                              l.longest - l.start[CAST(HASH(t) % l.buckets AS BIGINT) + 1]
                            ),
                            LAMBDA i : l.owner[i] = CAST(HASH(t) % l.buckets AS BIGINT) + 1 AND l.words[i] = t
                          )[1],
                          0
                        )
                        ELSE 0
                      END
                    )
                  ],
                  LAMBDA found : LIST_TRANSFORM(
                    RANGE(1, LENGTH(l.labels) + 1),
                    LAMBDA c : CASE
                      WHEN l.base[c] IS NULL
                      OR CASE
                        WHEN l.zeros
                        THEN l.base_zero[c] + COALESCE(LIST_SUM(LIST_SELECT(l.zero[c], found)), 0)
                        ELSE 0
                      END > 0
                      THEN NULL
                      ELSE l.base[c] + COALESCE(LIST_SUM(LIST_SELECT(l.weight[c], found)), 0)
                    END
                  )
                )[1]
              )[1]
            ],
            LAMBDA j : LIST_TRANSFORM(
              [LIST_MAX(j)],
              LAMBDA top : LIST_TRANSFORM(
                [
                  LIST_SUM(
                    LIST_TRANSFORM(j, LAMBDA v : CASE WHEN v IS NULL OR v - top < -700 THEN 0 ELSE EXP(v - top) END)
                  )
                ],
                LAMBDA total : CASE
                  WHEN top IS NULL
                  THEN NULL
                  WHEN top IS NULL
                  THEN CAST(0 AS DOUBLE)
                  WHEN top - (
                    top + LN(total)
                  ) < -700
                  THEN CAST(0 AS DOUBLE)
                  ELSE EXP(top - (
                    top + LN(total)
                  ))
                END
              )[1]
            )[1]
          )[1]
        FROM (
          SELECT
            *,
            LIST_TRANSFORM(
              [
                LIST_FILTER(
                  CASE
                    WHEN TRUE AND REGEXP_FULL_MATCH(LOWER(sqlnb_text), '[\pL\pN ]*')
                    THEN STR_SPLIT(LOWER(sqlnb_text), ' ')
                    ELSE REGEXP_EXTRACT_ALL(LOWER(sqlnb_text), '[\pL\pN]+(?:''[\pL\pN]+)*')
                  END,
                  LAMBDA t : t <> '' AND TRUE
                )
              ],
              LAMBDA k : k
            )[1] AS sqlnb_tokens
          FROM (
            SELECT
              *
            FROM sqlnb_lookup
            WHERE
              model = sqlnb_model
          ) AS l
        ) AS l
      )
    )
  END
);
