-- Decisions by cost: for every document and candidate class, the expected cost
-- sum over actual classes of p(actual | x) cost(actual, candidate) ($costs: actual, predicted,
-- cost, by class_id); rn = 1 marks the least, ties to the first class in sorted order.
SELECT
  e.doc_id AS doc_id,
  e.class_id AS class_id,
  e.expected_cost AS expected_cost,
  ROW_NUMBER() OVER (PARTITION BY e.doc_id ORDER BY e.expected_cost, e.class_id) AS rn
FROM (
  SELECT
    p.doc_id AS doc_id,
    k.predicted AS class_id,
    SUM(COALESCE(p.proba, CAST(0 AS DOUBLE)) * k.cost) AS expected_cost
  FROM $posterior AS p
  JOIN $costs AS k
    ON k.actual = p.class_id
  GROUP BY p.doc_id, k.predicted
) AS e
