-- Appending: every feature's unweighted statistics of the model and the new batch combined
-- exactly (Chan, Golub and LeVeque, as sql/append/gaussian_stats.sql). A model stored before
-- sqlnb_gaussian_spread brings its per-class statistics as the parts instead (the same numbers
-- for a model trained without weights). The mean is summed as deviations from the smallest
-- part mean, as there.
INSERT INTO sqlnb_gaussian_spread (model, feature, n, mean, m2)
SELECT
  $merged AS model,
  p.feature AS feature,
  t.n AS n,
  t.mean AS mean,
  SUM(p.m2 + p.n * (p.mean - t.mean) * (p.mean - t.mean)) AS m2
FROM (
  SELECT s.feature AS feature, s.n AS n, s.mean AS mean, s.m2 AS m2
  FROM sqlnb_gaussian_spread AS s
  WHERE s.model = $model OR s.model = $batch
  UNION ALL
  SELECT g.feature, g.n, g.mean, g.m2
  FROM sqlnb_gaussian_stats AS g
  WHERE g.model = $model
    AND NOT EXISTS (SELECT 1 FROM sqlnb_gaussian_spread AS o WHERE o.model = $model)
) AS p
JOIN (
  SELECT
    r.feature AS feature,
    SUM(r.n) AS n,
    MAX(r.shift) + SUM(r.n * (r.mean - r.shift)) / NULLIF(SUM(r.n), 0) AS mean
  FROM (
    SELECT
      q.feature AS feature,
      q.n AS n,
      q.mean AS mean,
      MIN(q.mean) OVER (PARTITION BY q.feature) AS shift
    FROM (
      SELECT s.feature AS feature, s.n AS n, s.mean AS mean
      FROM sqlnb_gaussian_spread AS s
      WHERE s.model = $model OR s.model = $batch
      UNION ALL
      SELECT g.feature, g.n, g.mean
      FROM sqlnb_gaussian_stats AS g
      WHERE g.model = $model
        AND NOT EXISTS (SELECT 1 FROM sqlnb_gaussian_spread AS o WHERE o.model = $model)
    ) AS q
  ) AS r
  GROUP BY r.feature
) AS t
  ON t.feature = p.feature
GROUP BY p.feature, t.n, t.mean
