-- The cost table $costs as (actual, predicted, cost) of model $model's class ids: each row's
-- labels, as text, joined to the model's classes ($actual, $predicted and $cost are the table's
-- columns). sqlnb.decisions.costs checked first that it names every pair of the classes once,
-- with a finite cost >= 0. A join, not the rows as literals: K classes make K * K pairs.
SELECT
  a.class_id AS actual,
  p.class_id AS predicted,
  CAST($cost AS DOUBLE) AS cost
FROM $costs AS k
JOIN sqlnb_classes AS a
  ON a.model = $model AND a.label = CAST($actual AS VARCHAR)
JOIN sqlnb_classes AS p
  ON p.model = $model AND p.label = CAST($predicted AS VARCHAR)
