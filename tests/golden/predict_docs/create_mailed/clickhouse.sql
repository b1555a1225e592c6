CREATE TABLE "mailed" AS
WITH sqlnb_input AS (
@input
), sqlnb_documents AS (
@documents
), sqlnb_jll AS (
@jll
), sqlnb_posterior AS (
@posterior
)
SELECT
  p.doc_id AS doc_id,
  c.label AS label,
  p.log_proba AS log_proba,
  p.proba AS proba
FROM sqlnb_posterior AS p
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'mail'
) AS c
  ON c.class_id = p.class_id;
