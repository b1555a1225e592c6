-- A multi-label model's labels at its threshold over lists, for the step sql/multilabel/
-- listed.sql (the list form: DuckDB's macros over the lookup row, ClickHouse's lambdas over its
-- dictionaries, which write these list functions in their names): each label's binary
-- probability p is $logistic of its log odds v (sql/multilabel/logistic.sql, the step
-- posterior.sql takes too; $jll in class order, a NULL jll a probability of 0); labels are those
-- of $classes (in class order) whose p is at or above $threshold, top the largest p.
-- LIST_TRANSFORM([value], LAMBDA p: ...)[1] names a value.
SELECT
  LIST_TRANSFORM(
    [LIST_TRANSFORM($jll, LAMBDA v: $logistic)],
    LAMBDA p: LIST_FILTER(
      LIST_TRANSFORM(
        RANGE(1, LEN(p) + 1),
        LAMBDA i: CASE WHEN p[i] >= $threshold THEN $classes[i] END
      ),
      LAMBDA x: x IS NOT NULL
    )
  )[1] AS labels,
  LIST_MAX(LIST_TRANSFORM($jll, LAMBDA v: $logistic)) AS top
