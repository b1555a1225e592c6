-- The classes' joint log-likelihoods of a text in sql/macros/scores.sql, its words' positions
-- found, for a model with a document transform: each distinct word found once (h: position ->
-- count), its $value (sql/tfidf/value.sql of its count, the model's l.sublinear and the word's
-- l.idf) in the list x, the document's $norm (sql/tfidf/norm.sql over x), and each class's
-- $transformed (sql/macros/terms.sql: x / norm times the weights).
SELECT
  LIST_TRANSFORM(
    [LIST_AGGREGATE(LIST_FILTER(found, LAMBDA f: f > 0), 'histogram')],
    LAMBDA h: LIST_TRANSFORM(
      [LIST_TRANSFORM(RANGE(1, LEN(MAP_KEYS(h)) + 1), LAMBDA i: $value)],
      LAMBDA x: LIST_TRANSFORM(
        [$norm],
        LAMBDA norm: LIST_TRANSFORM(RANGE(1, LEN(l.labels) + 1), LAMBDA c: $transformed)
      )[1]
    )[1]
  )[1] AS jll
