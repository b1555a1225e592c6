-- sql/calibrate/calibrated.sql and sql/predict/renormalise.sql in DuckDB's list form, for a text
-- of a model whose calibration maps (l.calibrated: sql/calibrate/steps.sql; l the lookup row,
-- sql/macros/lookup.sql). $probas is the list of the text's uncalibrated posteriors in class
-- order (pr). Each class with calibration rows maps its p by the row whose lo is the largest
-- <= p ($mapped, of the variables p, lo, a, b and method: sqlnb.pipeline.mapping); a class
-- without (the first of two) gets 1 minus the others' largest; the values are divided by their
-- sum (1/K where it is 0): the list q. label is the class at $position (sql/macros/argmax.sql of
-- q: its first class of the largest value), proba that value, probas the list q itself (what a
-- hierarchical model's walk sums: sql/labels/).
SELECT
  LIST_TRANSFORM(
    [
      LIST_TRANSFORM(
      [$probas],
      LAMBDA pr: LIST_TRANSFORM(
        [
          LIST_TRANSFORM(
            RANGE(1, LEN(l.labels) + 1),
            LAMBDA i: CASE
              WHEN LEN(COALESCE(l.cal_lo[i], [])) = 0 THEN NULL
              ELSE LIST_TRANSFORM(
                [LEN(LIST_FILTER(l.cal_lo[i], LAMBDA x: x <= pr[i]))],
                LAMBDA s: LIST_TRANSFORM(
                  [pr[i]],
                  LAMBDA p: LIST_TRANSFORM(
                    [l.cal_lo[i][s]],
                    LAMBDA lo: LIST_TRANSFORM(
                      [l.cal_a[i][s]],
                      LAMBDA a: LIST_TRANSFORM(
                        [l.cal_b[i][s]],
                        LAMBDA b: LIST_TRANSFORM([l.cal_method[i]], LAMBDA method: $mapped)[1]
                      )[1]
                    )[1]
                  )[1]
                )[1]
              )[1]
            END
          )
        ],
        LAMBDA g: LIST_TRANSFORM(
          [LIST_TRANSFORM(g, LAMBDA v: COALESCE(v, 1 - LIST_MAX(g)))],
          LAMBDA u: LIST_TRANSFORM(
            [LIST_SUM(u)],
            LAMBDA total: LIST_TRANSFORM(
              u,
              LAMBDA v: CASE WHEN total > 0 THEN v / total ELSE CAST(1 AS DOUBLE) / LEN(u) END
            )
          )[1]
        )[1]
      )[1]
    )[1]
    ],
    LAMBDA q: l.labels[$position]
  )[1] AS label,
  LIST_MAX(
    LIST_TRANSFORM(
      [$probas],
      LAMBDA pr: LIST_TRANSFORM(
        [
          LIST_TRANSFORM(
            RANGE(1, LEN(l.labels) + 1),
            LAMBDA i: CASE
              WHEN LEN(COALESCE(l.cal_lo[i], [])) = 0 THEN NULL
              ELSE LIST_TRANSFORM(
                [LEN(LIST_FILTER(l.cal_lo[i], LAMBDA x: x <= pr[i]))],
                LAMBDA s: LIST_TRANSFORM(
                  [pr[i]],
                  LAMBDA p: LIST_TRANSFORM(
                    [l.cal_lo[i][s]],
                    LAMBDA lo: LIST_TRANSFORM(
                      [l.cal_a[i][s]],
                      LAMBDA a: LIST_TRANSFORM(
                        [l.cal_b[i][s]],
                        LAMBDA b: LIST_TRANSFORM([l.cal_method[i]], LAMBDA method: $mapped)[1]
                      )[1]
                    )[1]
                  )[1]
                )[1]
              )[1]
            END
          )
        ],
        LAMBDA g: LIST_TRANSFORM(
          [LIST_TRANSFORM(g, LAMBDA v: COALESCE(v, 1 - LIST_MAX(g)))],
          LAMBDA u: LIST_TRANSFORM(
            [LIST_SUM(u)],
            LAMBDA total: LIST_TRANSFORM(
              u,
              LAMBDA v: CASE WHEN total > 0 THEN v / total ELSE CAST(1 AS DOUBLE) / LEN(u) END
            )
          )[1]
        )[1]
      )[1]
    )[1]
  ) AS proba,
  LIST_TRANSFORM(
    [$probas],
    LAMBDA pr: LIST_TRANSFORM(
      [
        LIST_TRANSFORM(
          RANGE(1, LEN(l.labels) + 1),
          LAMBDA i: CASE
            WHEN LEN(COALESCE(l.cal_lo[i], [])) = 0 THEN NULL
            ELSE LIST_TRANSFORM(
              [LEN(LIST_FILTER(l.cal_lo[i], LAMBDA x: x <= pr[i]))],
              LAMBDA s: LIST_TRANSFORM(
                [pr[i]],
                LAMBDA p: LIST_TRANSFORM(
                  [l.cal_lo[i][s]],
                  LAMBDA lo: LIST_TRANSFORM(
                    [l.cal_a[i][s]],
                    LAMBDA a: LIST_TRANSFORM(
                      [l.cal_b[i][s]],
                      LAMBDA b: LIST_TRANSFORM([l.cal_method[i]], LAMBDA method: $mapped)[1]
                    )[1]
                  )[1]
                )[1]
              )[1]
            )[1]
          END
        )
      ],
      LAMBDA g: LIST_TRANSFORM(
        [LIST_TRANSFORM(g, LAMBDA v: COALESCE(v, 1 - LIST_MAX(g)))],
        LAMBDA u: LIST_TRANSFORM(
          [LIST_SUM(u)],
          LAMBDA total: LIST_TRANSFORM(
            u,
            LAMBDA v: CASE WHEN total > 0 THEN v / total ELSE CAST(1 AS DOUBLE) / LEN(u) END
          )
        )[1]
      )[1]
    )[1]
  )[1] AS probas
