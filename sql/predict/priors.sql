-- One round of Saerens, Latinne and Decaestecker's (2002) EM for new class priors, over the
-- $scored documents' posteriors (doc_id, class_id, proba): each posterior times $weight (the
-- class's current prior estimate over its training prior), renormalised per document, then
-- averaged over the documents per class: the next estimate of the priors.
SELECT
  a.class_id AS class_id,
  AVG(a.adjusted) AS prior
FROM (
  SELECT
    w.class_id AS class_id,
    CASE WHEN w.total > 0 THEN w.value / w.total ELSE CAST(0 AS DOUBLE) END AS adjusted
  FROM (
    SELECT
      s.class_id AS class_id,
      s.proba * $weight AS value,
      SUM(s.proba * $weight) OVER (PARTITION BY s.doc_id) AS total
    FROM $scored AS s
  ) AS w
) AS a
GROUP BY a.class_id
ORDER BY a.class_id
