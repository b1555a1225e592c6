-- The $top most indicative words of each class: log theta_kw minus the mean log theta of the
-- word in the other classes (for two classes, the word's weight in the linear form).
SELECT
  r.class_id AS class_id,
  r.label AS label,
  r.word AS word,
  r.log_theta AS log_theta,
  r.score AS score
FROM (
  SELECT
    s.class_id AS class_id,
    s.label AS label,
    s.word AS word,
    s.log_theta AS log_theta,
    s.score AS score,
    ROW_NUMBER() OVER (PARTITION BY s.class_id ORDER BY s.score DESC, s.word) AS rn
  FROM (
    SELECT
      lt.class_id AS class_id,
      lt.label AS label,
      lt.word AS word,
      lt.log_theta AS log_theta,
      lt.log_theta - (SUM(lt.log_theta) OVER (PARTITION BY lt.word) - lt.log_theta)
        / (COUNT(*) OVER (PARTITION BY lt.word) - 1) AS score
    FROM sqlnb_log_theta AS lt
    WHERE lt.model = $model AND lt.log_theta IS NOT NULL
  ) AS s
  WHERE s.score IS NOT NULL
) AS r
WHERE r.rn <= $top
ORDER BY r.class_id, r.rn
