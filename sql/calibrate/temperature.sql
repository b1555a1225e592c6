-- One Newton step of temperature scaling at inverse temperature $beta, over the $scores
-- (sql/calibrate/scores.sql): the log-loss of softmax(beta s) summed over the documents, and its
-- first and second derivatives in beta. Per document, with e = exp(beta s) (s <= 0, so the
-- largest e is 1): loss = ln sum e - beta s_true; d/dbeta = E[s] - s_true; d2/dbeta2 = Var[s]
-- under softmax(beta s). Classes of probability 0 (s NULL) add nothing; a document whose true
-- class has probability 0 has an infinite loss at every temperature and is left out.
SELECT
  COUNT(*) AS n_docs,
  SUM(d.lse - $beta * d.s_true) AS loss,
  SUM(d.m1 - d.s_true) AS grad,
  SUM(d.m2 - d.m1 * d.m1) AS hess
FROM (
  SELECT
    x.doc_id AS doc_id,
    LN(SUM(x.e)) AS lse,
    SUM(x.e * x.s) / SUM(x.e) AS m1,
    SUM(x.e * x.s * x.s) / SUM(x.e) AS m2,
    MAX(CASE WHEN x.y = 1 THEN x.s END) AS s_true
  FROM (
    SELECT
      c.doc_id AS doc_id,
      c.s AS s,
      c.y AS y,
      CASE WHEN $beta * c.s < -700 THEN CAST(0 AS DOUBLE) ELSE EXP($beta * c.s) END AS e
    FROM $scores AS c
    WHERE c.s IS NOT NULL
  ) AS x
  GROUP BY x.doc_id
) AS d
WHERE d.s_true IS NOT NULL
