-- The joint log-likelihood of every (document, class), for every kind: the kind's per-class
-- $base (class_id, score, n_zero) plus its per-document $parts (doc_id, class_id, score, n_zero;
-- at most one row per document and class), by the rule of sql/predict/joint.sql ($jll, of the
-- columns base, n_zero and score of j). A document without parts (no known word) gets the base
-- alone; parts of a document not among the $documents are left out (listed = 0 only).
-- The parts are added to the base rows by a UNION ALL and a GROUP BY, not by a LEFT JOIN: there
-- is no join whose plan an engine can get wrong (SQLite's planner, depending on the row counts
-- of the model tables, scanned every part once per document and class: quadratic time). Per
-- (document, class), the base is the base row's (NULL if the class is undefined), the score the
-- part's (0 without one), n_zero the sum of both (BIGINT in both branches: ClickHouse makes
-- a union of two integer types a Variant, which SUM refuses).
SELECT
  j.doc_id AS doc_id,
  j.class_id AS class_id,
  $jll AS jll
FROM (
  SELECT
    u.doc_id AS doc_id,
    u.class_id AS class_id,
    MAX(u.base) AS base,
    SUM(u.n_zero) AS n_zero,
    SUM(u.score) AS score
  FROM (
    SELECT
      d.doc_id AS doc_id,
      b.class_id AS class_id,
      b.score AS base,
      CAST(b.n_zero AS BIGINT) AS n_zero,
      CAST(0 AS DOUBLE) AS score,
      1 AS listed
    FROM $documents AS d
    CROSS JOIN $base AS b
    UNION ALL
    SELECT
      s.doc_id AS doc_id,
      s.class_id AS class_id,
      CAST(NULL AS DOUBLE) AS base,
      CAST(s.n_zero AS BIGINT) AS n_zero,
      s.score AS score,
      0 AS listed
    FROM $parts AS s
  ) AS u
  GROUP BY u.doc_id, u.class_id
  HAVING MAX(u.listed) = 1
) AS j
