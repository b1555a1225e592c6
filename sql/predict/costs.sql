-- Decisions by cost: for every document and candidate class, the expected cost
-- sum over actual classes of p(actual | x) cost(actual, candidate) ($costs: actual, predicted,
-- cost, by class_id); rn = 1 marks the least, ties to the first class in sorted order. Expected
-- costs within a relative 1e-12 of the document's least are ties: equal sums come out of the
-- engine's additions in different orders, a few units in the last place apart.
SELECT
  e.doc_id AS doc_id,
  e.class_id AS class_id,
  e.expected_cost AS expected_cost,
  ROW_NUMBER() OVER (
    PARTITION BY e.doc_id
    ORDER BY
      CASE WHEN e.expected_cost <= e.least + ABS(e.least) * CAST(1e-12 AS DOUBLE) THEN 0 ELSE 1 END,
      e.class_id
  ) AS rn
FROM (
  SELECT
    c.doc_id AS doc_id,
    c.class_id AS class_id,
    c.expected_cost AS expected_cost,
    MIN(c.expected_cost) OVER (PARTITION BY c.doc_id) AS least
  FROM (
    SELECT
      p.doc_id AS doc_id,
      k.predicted AS class_id,
      SUM(COALESCE(p.proba, CAST(0 AS DOUBLE)) * k.cost) AS expected_cost
    FROM $posterior AS p
    JOIN $costs AS k
      ON k.actual = p.class_id
    GROUP BY p.doc_id, k.predicted
  ) AS c
) AS e
