-- Appending: Gaussian statistics of the model and the new batch combined exactly (Chan, Golub
-- and LeVeque): n adds up, the mean is the n-weighted mean, and
-- m2 = sum of the parts' m2 + sum of n_part * (mean_part - mean)^2. The mean is summed as the
-- parts' deviations from the smallest part mean (exact for means near one another), so means
-- around 1e6 keep the digits that sum(n * mean) would round away.
INSERT INTO sqlnb_gaussian_stats (model, class_id, feature, n, mean, m2)
SELECT
  $merged AS model,
  p.class_id AS class_id,
  p.feature AS feature,
  t.n AS n,
  t.mean AS mean,
  SUM(p.m2 + p.n * (p.mean - t.mean) * (p.mean - t.mean)) AS m2
FROM (
  SELECT m.class_id AS class_id, g.feature AS feature, g.n AS n, g.mean AS mean, g.m2 AS m2
  FROM sqlnb_gaussian_stats AS g
  JOIN sqlnb_classes AS c
    ON c.model = g.model AND c.class_id = g.class_id
  JOIN sqlnb_classes AS m
    ON m.model = $merged AND m.label = c.label
  WHERE g.model = $model OR g.model = $batch
) AS p
JOIN (
  SELECT
    q.class_id AS class_id,
    q.feature AS feature,
    SUM(q.n) AS n,
    MAX(q.shift) + SUM(q.n * (q.mean - q.shift)) / NULLIF(SUM(q.n), 0) AS mean
  FROM (
    SELECT
      m.class_id AS class_id,
      g.feature AS feature,
      g.n AS n,
      g.mean AS mean,
      MIN(g.mean) OVER (PARTITION BY m.class_id, g.feature) AS shift
    FROM sqlnb_gaussian_stats AS g
    JOIN sqlnb_classes AS c
      ON c.model = g.model AND c.class_id = g.class_id
    JOIN sqlnb_classes AS m
      ON m.model = $merged AND m.label = c.label
    WHERE g.model = $model OR g.model = $batch
  ) AS q
  GROUP BY q.class_id, q.feature
) AS t
  ON t.class_id = p.class_id AND t.feature = p.feature
GROUP BY p.class_id, p.feature, t.n, t.mean
