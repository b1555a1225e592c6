-- One Newton step of temperature scaling at inverse temperature $beta, over the $scores
-- (sql/calibrate/scores.sql): the log-loss of softmax(beta s) summed over the documents, and its
-- first and second derivatives in beta. Per document, with z = beta s (<= 0, the largest 0) and
-- e = exp(z): loss = ln sum e - z_true; d/dbeta = (E[z] - z_true) / beta; d2/dbeta2 =
-- Var[z] / beta^2 under softmax(z) (moments of z, not of s, and a tiny mean's square 0: no
-- product underflows, which PostgreSQL reports as an error). Classes of probability 0 (s NULL)
-- add nothing; a document whose true class has probability 0 has an infinite loss at every
-- temperature and is left out.
SELECT
  COUNT(*) AS n_docs,
  SUM(d.lse - d.z_true) AS loss,
  SUM(d.m1 - d.z_true) / $beta AS grad,
  SUM(d.m2 - CASE WHEN ABS(d.m1) < 1E-150 THEN 0 ELSE d.m1 * d.m1 END) / ($beta * $beta) AS hess
FROM (
  SELECT
    x.doc_id AS doc_id,
    LN(SUM(x.e)) AS lse,
    SUM(x.e * x.z) / SUM(x.e) AS m1,
    SUM(x.e * x.z * x.z) / SUM(x.e) AS m2,
    MAX(CASE WHEN x.y = 1 THEN x.z END) AS z_true
  FROM (
    SELECT
      c.doc_id AS doc_id,
      $beta * c.s AS z,
      c.y AS y,
      CASE WHEN $beta * c.s < -700 THEN CAST(0 AS DOUBLE) ELSE EXP($beta * c.s) END AS e
    FROM $scores AS c
    WHERE c.s IS NOT NULL
  ) AS x
  GROUP BY x.doc_id
) AS d
WHERE d.z_true IS NOT NULL
