-- The $top most indicative words of each class: those whose probability in class k stands out
-- against the other classes, as the classic "most informative features" rank them. A word's
-- score in class k is log theta_kw - log(mean of theta_jw over the other classes j): the log of
-- how many times likelier the word is in k than in the average other class, so a frequent word
-- used alike by every class (the, of, to) scores about 0 whatever its frequency. Only words
-- likelier in k than elsewhere (score > 0) are listed; ties go to the more probable word. A
-- word that no other class has (alpha = 0) scores as if the others' mean were theta_kw * 1e-12
-- (27.6), so its score stays a number. A one-class model has no scores.
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
    ROW_NUMBER() OVER (
      PARTITION BY s.class_id ORDER BY s.score DESC, s.log_theta DESC, s.word
    ) AS rn
  FROM (
    SELECT
      o.class_id AS class_id,
      o.label AS label,
      o.word AS word,
      o.log_theta AS log_theta,
      CASE
        WHEN o.n_classes > 1
          THEN o.log_theta - LN(
            GREATEST(o.others / (o.n_classes - 1), EXP(o.log_theta) * CAST(1e-12 AS DOUBLE))
          )
      END AS score
    FROM (
      SELECT
        lt.class_id AS class_id,
        lt.label AS label,
        lt.word AS word,
        lt.log_theta AS log_theta,
        n.n_classes AS n_classes,
        SUM(EXP(lt.log_theta)) OVER (PARTITION BY lt.word) - EXP(lt.log_theta) AS others
      FROM sqlnb_log_theta AS lt
      CROSS JOIN (
        SELECT CAST(COUNT(*) AS DOUBLE) AS n_classes FROM sqlnb_classes WHERE model = $model
      ) AS n
      WHERE lt.model = $model AND lt.log_theta IS NOT NULL
    ) AS o
  ) AS s
  WHERE s.score > 0
) AS r
WHERE r.rn <= $top
ORDER BY r.class_id, r.rn
