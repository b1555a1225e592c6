-- Multi-label models in ClickHouse's SQL functions (sqlnb_classify, sqlnb_proba), as
-- sql/multilabel/listed.sql over arrays: {threshold} is the model's stored threshold (-1 for a
-- model of one label per document), {labels} its classes in class order and {jll} the text's
-- log odds in that order. A multi-label model's labels are those whose binary probability
-- ({logistic} of a log odds v: sql/multilabel/logistic.sql, as posterior.sql) is at or above the
-- threshold, in class order (an empty array if none), and its proba the largest probability;
-- another model's {label} is an array of one (none if NULL: a walk that stopped above the
-- tree) and its {proba} stands. arrayMap(name -> ..., [value])[1] names a value.
SELECT
  if(
    {threshold: String} >= 0,
    arrayMap(
      ps -> arrayFilter((k, p) -> p >= {threshold: String}, {labels: String}, ps),
      [arrayMap(v -> {logistic: String}, {jll: String})]
    )[1],
    arrayFilter(x -> isNotNull(x), [{label: String}])
  ) AS label,
  if(
    {threshold: String} >= 0,
    arrayMax(arrayMap(v -> {logistic: String}, {jll: String})),
    {proba: String}
  ) AS proba
