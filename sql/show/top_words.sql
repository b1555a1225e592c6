-- The $top most indicative words of each class. A word's score in class k is
-- theta_kw * (log theta_kw - mean log theta of the word in the other classes): how much the word
-- separates k from the rest, weighted by how often k uses it (a term of a KL divergence), so
-- frequent telling words rank above rare ones. A one-class model has no scores.
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
      EXP(lt.log_theta) * (
        lt.log_theta
        - (SUM(lt.log_theta) OVER (PARTITION BY lt.word) - lt.log_theta)
        / (CASE WHEN n.n_classes > 1 THEN n.n_classes - 1 END)
      ) AS score
    FROM sqlnb_log_theta AS lt
    CROSS JOIN (
      SELECT CAST(COUNT(*) AS DOUBLE) AS n_classes FROM sqlnb_classes WHERE model = $model
    ) AS n
    WHERE lt.model = $model AND lt.log_theta IS NOT NULL
  ) AS s
  WHERE s.score IS NOT NULL
) AS r
WHERE r.rn <= $top
ORDER BY r.class_id, r.rn
