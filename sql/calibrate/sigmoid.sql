-- One Newton step of Platt's sigmoid per calibrated class: over the $scores of the classes
-- being fitted ($kept), p = 1 / (1 + exp(z)), z = $a p_class + $b ($a, $b: the class's current
-- values), against the target t ($target: (n+ + 1)/(n+ + 2) for the class's documents,
-- 1/(n- + 2) for the others, as scikit-learn's _sigmoid_calibration). loss = sum softplus(z) - (1 - t) z; its
-- gradient in (a, b) is sum (t - p)(F, 1) and its Hessian sum p (1 - p)(F, 1)(F, 1)' (F^2 of a
-- tiny F is 0: PostgreSQL reports a product that underflows as an error).
SELECT
  x.class_id AS class_id,
  SUM(CASE WHEN x.z > 30 THEN x.z + LN(1 + EXP(-x.z)) ELSE LN(1 + EXP(x.z)) END - (1 - x.t) * x.z)
    AS loss,
  SUM((x.t - x.p) * x.f) AS grad_a,
  SUM(x.t - x.p) AS grad_b,
  SUM(x.p * (1 - x.p) * CASE WHEN x.f < 1E-150 THEN 0 ELSE x.f * x.f END) AS h_aa,
  SUM(x.p * (1 - x.p) * x.f) AS h_ab,
  SUM(x.p * (1 - x.p)) AS h_bb
FROM (
  SELECT
    v.class_id AS class_id,
    v.f AS f,
    v.t AS t,
    v.z AS z,
    CASE
      WHEN v.z >= 0 THEN EXP(-v.z) / (1 + EXP(-v.z))
      ELSE 1 / (1 + EXP(v.z))
    END AS p
  FROM (
    SELECT
      c.class_id AS class_id,
      c.proba AS f,
      $target AS t,
      $a * c.proba + $b AS z
    FROM $scores AS c
    WHERE $kept
  ) AS v
) AS x
GROUP BY x.class_id
