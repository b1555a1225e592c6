-- The prediction for one text in DuckDB's sqlnb_classify and sqlnb_proba, from $jll, its list of
-- joint log-likelihoods in class order (sql/macros/scores.sql), by the rules of
-- sql/predict/posterior.sql: the predicted label (l.labels, sql/macros/lookup.sql) is the
-- class at $position (sql/macros/argmax.sql of the list j and its largest top: the largest jll,
-- ties to the first class; if every jll is NULL, the first class); proba is its posterior, $proba of
-- sql/predict/normalise.sql with the sum of its $term over the classes (the variables top,
-- total and v: the largest jll, the sum, one class's jll); probas is every class's posterior,
-- in class order ($each: $proba of v).
SELECT
  LIST_TRANSFORM(
    [$jll],
    LAMBDA j: LIST_TRANSFORM(
      [LIST_MAX(j)],
      LAMBDA top: l.labels[$position]
    )[1]
  )[1] AS label,
  LIST_TRANSFORM(
    [$jll],
    LAMBDA j: LIST_TRANSFORM(
      [LIST_MAX(j)],
      LAMBDA top: LIST_TRANSFORM([LIST_SUM(LIST_TRANSFORM(j, LAMBDA v: $term))], LAMBDA total: $proba)[1]
    )[1]
  )[1] AS proba,
  LIST_TRANSFORM(
    [$jll],
    LAMBDA j: LIST_TRANSFORM(
      [LIST_MAX(j)],
      LAMBDA top: LIST_TRANSFORM(
        [LIST_SUM(LIST_TRANSFORM(j, LAMBDA v: $term))],
        LAMBDA total: LIST_TRANSFORM(j, LAMBDA v: $each)
      )[1]
    )[1]
  )[1] AS probas
