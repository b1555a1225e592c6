-- Multi-label models in DuckDB's SQL functions (sqlnb_classify, sqlnb_proba), over the lookup
-- row $row (l: sql/macros/lookup.sql) of model $model. For a model that stores a threshold
-- (trained with --multi-label: $modes, sql/multilabel/modes.sql) each label's binary
-- probability is $logistic of its log odds v ($jll, in class order): sql/multilabel/logistic.sql, the step
-- sql/multilabel/posterior.sql takes too (a NULL jll a probability of 0): sqlnb_classify's labels are those at or above the threshold,
-- in class order (the labels' sorted order), an empty list if none; sqlnb_proba is the largest
-- probability. For any other model its $label as a list of one (none if NULL: a walk that
-- stopped above the tree) and its $proba.
SELECT
  CASE
    WHEN m.threshold IS NULL THEN LIST_FILTER([$label], LAMBDA x: x IS NOT NULL)
    ELSE LIST_TRANSFORM(
      [
        LIST_TRANSFORM(
          $jll,
          LAMBDA v: $logistic
        )
      ],
      LAMBDA p: LIST_FILTER(
        LIST_TRANSFORM(
          RANGE(1, LEN(p) + 1),
          LAMBDA i: CASE WHEN p[i] >= m.threshold THEN l.labels[i] END
        ),
        LAMBDA x: x IS NOT NULL
      )
    )[1]
  END AS label,
  CASE
    WHEN m.threshold IS NULL THEN $proba
    ELSE LIST_MAX(
      LIST_TRANSFORM(
        $jll,
        LAMBDA v: $logistic
      )
    )
  END AS proba
FROM $row AS l
LEFT JOIN (
  SELECT g.threshold AS threshold
  FROM $modes AS g
  WHERE g.model = $model
) AS m
  ON TRUE
