BEGIN;
CREATE TABLE IF NOT EXISTS sqlnb_models (
  model TEXT,
  kind TEXT,
  params TEXT,
  label_type TEXT,
  n_docs REAL,
  n_classes INTEGER,
  n_features INTEGER,
  trained_at TIMESTAMPNTZ,
  version TEXT
);
CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model TEXT,
  class_id INTEGER,
  label TEXT,
  n_docs REAL
);
CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model TEXT,
  class_id INTEGER,
  label TEXT,
  log_prior REAL
);
CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model TEXT,
  class_id INTEGER,
  word TEXT,
  count REAL
);
CREATE TABLE IF NOT EXISTS sqlnb_log_theta (
  model TEXT,
  class_id INTEGER,
  label TEXT,
  word TEXT,
  log_theta REAL
);
CREATE TABLE IF NOT EXISTS sqlnb_log_absent (
  model TEXT,
  class_id INTEGER,
  word TEXT,
  log_absent REAL
);
DELETE FROM "sqlnb_models"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_log_absent"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_log_theta"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_prior"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_word_counts"
WHERE
  model = 'spam';
INSERT INTO sqlnb_classes (
  model,
  class_id,
  label,
  n_docs
)
SELECT
  'spam' AS model,
  l.class_id AS class_id,
  CAST(l.label AS TEXT) AS label,
  SUM(l.weight) AS n_docs
FROM (
  SELECT
    l.doc_id AS doc_id,
    l.label AS label,
    l.weight AS weight,
    DENSE_RANK() OVER (ORDER BY l.label NULLS LAST) - 1 AS class_id
  FROM (
    SELECT DISTINCT
      "doc_id" AS doc_id,
      "label" AS label,
      CAST(1 AS REAL) AS weight
    FROM "labels" AS s
  ) AS l
) AS l
GROUP BY
  l.class_id,
  l.label;
INSERT INTO sqlnb_word_counts (
  model,
  class_id,
  word,
  count
)
SELECT
  'spam' AS model,
  l.class_id AS class_id,
  t.word AS word,
  SUM(l.weight) AS count
FROM (
  SELECT
    doc_id,
    word
  FROM (
    SELECT
      "doc_id" AS doc_id,
      CAST("word" AS TEXT) AS word,
      CAST("count" AS REAL) AS count
    FROM "tokens" AS s
  ) AS x
  GROUP BY
    doc_id,
    word
  HAVING
    SUM(count) > 0
) AS t
JOIN (
  SELECT
    l.doc_id AS doc_id,
    l.label AS label,
    l.weight AS weight,
    DENSE_RANK() OVER (ORDER BY l.label NULLS LAST) - 1 AS class_id
  FROM (
    SELECT DISTINCT
      "doc_id" AS doc_id,
      "label" AS label,
      CAST(1 AS REAL) AS weight
    FROM "labels" AS s
  ) AS l
) AS l
  ON l.doc_id = t.doc_id
GROUP BY
  l.class_id,
  t.word;
INSERT INTO sqlnb_prior (
  model,
  class_id,
  label,
  log_prior
)
SELECT
  w.model AS model,
  w.class_id AS class_id,
  w.label AS label,
  CASE WHEN w.weight > 0 THEN LN(w.weight) - LN(w.total) END AS log_prior
FROM (
  SELECT
    c.model AS model,
    c.class_id AS class_id,
    c.label AS label,
    CAST(c.n_docs + CAST(0.0 AS REAL) AS REAL) AS weight,
    CAST(SUM(c.n_docs + CAST(0.0 AS REAL)) OVER () AS REAL) AS total
  FROM sqlnb_classes AS c
  WHERE
    c.model = 'spam'
) AS w;
INSERT INTO sqlnb_log_theta (
  model,
  class_id,
  label,
  word,
  log_theta
)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  v.word AS word,
  CASE
    WHEN COALESCE(w.count, 0) + CAST(1.0 AS REAL) > 0
    AND c.n_docs + CAST(1.0 AS REAL) + CAST(1.0 AS REAL) > 0
    THEN LN(COALESCE(w.count, 0) + CAST(1.0 AS REAL)) - LN(c.n_docs + CAST(1.0 AS REAL) + CAST(1.0 AS REAL))
  END AS log_theta
FROM sqlnb_classes AS c
CROSS JOIN (
  SELECT DISTINCT
    word
  FROM sqlnb_word_counts
  WHERE
    model = 'spam'
) AS v
LEFT JOIN (
  SELECT
    class_id,
    word,
    count
  FROM sqlnb_word_counts
  WHERE
    model = 'spam'
) AS w
  ON w.class_id = c.class_id AND w.word = v.word
WHERE
  c.model = 'spam';
INSERT INTO sqlnb_log_absent (
  model,
  class_id,
  word,
  log_absent
)
SELECT
  c.model AS model,
  c.class_id AS class_id,
  v.word AS word,
  CASE
    WHEN c.n_docs - COALESCE(w.count, 0) + CAST(1.0 AS REAL) > 0
    AND c.n_docs + CAST(1.0 AS REAL) + CAST(1.0 AS REAL) > 0
    THEN LN(c.n_docs - COALESCE(w.count, 0) + CAST(1.0 AS REAL)) - LN(c.n_docs + CAST(1.0 AS REAL) + CAST(1.0 AS REAL))
  END AS log_absent
FROM sqlnb_classes AS c
CROSS JOIN (
  SELECT DISTINCT
    word
  FROM sqlnb_word_counts
  WHERE
    model = 'spam'
) AS v
LEFT JOIN (
  SELECT
    class_id,
    word,
    count
  FROM sqlnb_word_counts
  WHERE
    model = 'spam'
) AS w
  ON w.class_id = c.class_id AND w.word = v.word
WHERE
  c.model = 'spam';
INSERT INTO sqlnb_models (
  model,
  kind,
  params,
  label_type,
  n_docs,
  n_classes,
  n_features,
  trained_at,
  version
)
SELECT
  'spam' AS model,
  'bernoulli' AS kind,
  '{"alpha": 1.0, "beta": null, "fit_prior": true, "class_prior": null, "prior_alpha": 0.0}' AS params,
  'VARCHAR' AS label_type,
  c.n_docs AS n_docs,
  c.n_classes AS n_classes,
  (
    SELECT
      COUNT(DISTINCT w.word) AS n_features
    FROM sqlnb_word_counts AS w
    WHERE
      w.model = 'spam'
  ) AS n_features,
  CURRENT_TIMESTAMP AS trained_at,
  '<version>' AS version
FROM (
  SELECT
    SUM(n_docs) AS n_docs,
    COUNT(*) AS n_classes
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c;
COMMIT;
