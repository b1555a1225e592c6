-- Why each document got its label: per feature, its score in the predicted class minus its
-- score in the runner-up (the second of the posterior's ranking), plus a '(prior)' row for the
-- per-class base (the log prior; for Bernoulli with the all-absent constant), so that a
-- document's contributions add up to log P(predicted) - log P(runner-up). With $top, the $top
-- largest contributions in absolute value are kept and the rest summed into '(other)'.
SELECT
  r.doc_id AS doc_id,
  CASE WHEN r.rn <= $top OR r.feature = '(prior)' THEN r.feature ELSE '(other)' END AS feature,
  SUM(r.contribution) AS contribution
FROM (
  SELECT
    d.doc_id AS doc_id,
    d.feature AS feature,
    d.contribution AS contribution,
    ROW_NUMBER() OVER (
      PARTITION BY d.doc_id
      ORDER BY CASE WHEN d.feature = '(prior)' THEN 1 ELSE 0 END, ABS(d.contribution) DESC,
        d.feature
    ) AS rn
  FROM (
    SELECT
      s.doc_id AS doc_id,
      s.feature AS feature,
      SUM(CASE WHEN s.class_id = p.top THEN s.score ELSE -s.score END) AS contribution
    FROM (
      SELECT f.doc_id AS doc_id, f.class_id AS class_id, f.feature AS feature, f.score AS score
      FROM $features AS f
      UNION ALL
      SELECT d.doc_id AS doc_id, b.class_id AS class_id, '(prior)' AS feature, b.score AS score
      FROM $documents AS d
      CROSS JOIN $base AS b
    ) AS s
    JOIN (
      SELECT
        q.doc_id AS doc_id,
        MAX(CASE WHEN q.rn = 1 THEN q.class_id END) AS top,
        MAX(CASE WHEN q.rn = 2 THEN q.class_id END) AS second
      FROM $posterior AS q
      GROUP BY q.doc_id
    ) AS p
      ON p.doc_id = s.doc_id AND (s.class_id = p.top OR s.class_id = p.second)
    GROUP BY s.doc_id, s.feature
  ) AS d
) AS r
GROUP BY r.doc_id, CASE WHEN r.rn <= $top OR r.feature = '(prior)' THEN r.feature ELSE '(other)' END
