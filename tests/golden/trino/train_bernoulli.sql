START TRANSACTION;
CREATE TABLE IF NOT EXISTS sqlnb_models (
  model VARCHAR,
  kind VARCHAR,
  params VARCHAR,
  label_type VARCHAR,
  n_docs DOUBLE,
  n_classes BIGINT,
  n_features BIGINT,
  trained_at TIMESTAMP,
  version VARCHAR
);
CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  n_docs DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  log_prior DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model VARCHAR,
  class_id BIGINT,
  word VARCHAR,
  count DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_log_theta (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  word VARCHAR,
  log_theta DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_log_absent (
  model VARCHAR,
  class_id BIGINT,
  word VARCHAR,
  log_absent DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model VARCHAR,
  word VARCHAR,
  base BIGINT,
  w0 DOUBLE,
  w1 DOUBLE,
  w2 DOUBLE,
  w3 DOUBLE,
  w4 DOUBLE,
  w5 DOUBLE,
  w6 DOUBLE,
  w7 DOUBLE,
  w8 DOUBLE,
  w9 DOUBLE,
  w10 DOUBLE,
  w11 DOUBLE,
  w12 DOUBLE,
  w13 DOUBLE,
  w14 DOUBLE,
  w15 DOUBLE,
  w16 DOUBLE,
  w17 DOUBLE,
  w18 DOUBLE,
  w19 DOUBLE,
  w20 DOUBLE,
  w21 DOUBLE,
  w22 DOUBLE,
  w23 DOUBLE,
  w24 DOUBLE,
  w25 DOUBLE,
  w26 DOUBLE,
  w27 DOUBLE,
  w28 DOUBLE,
  w29 DOUBLE,
  w30 DOUBLE,
  w31 DOUBLE,
  a0 DOUBLE,
  a1 DOUBLE,
  a2 DOUBLE,
  a3 DOUBLE,
  a4 DOUBLE,
  a5 DOUBLE,
  a6 DOUBLE,
  a7 DOUBLE,
  a8 DOUBLE,
  a9 DOUBLE,
  a10 DOUBLE,
  a11 DOUBLE,
  a12 DOUBLE,
  a13 DOUBLE,
  a14 DOUBLE,
  a15 DOUBLE,
  a16 DOUBLE,
  a17 DOUBLE,
  a18 DOUBLE,
  a19 DOUBLE,
  a20 DOUBLE,
  a21 DOUBLE,
  a22 DOUBLE,
  a23 DOUBLE,
  a24 DOUBLE,
  a25 DOUBLE,
  a26 DOUBLE,
  a27 DOUBLE,
  a28 DOUBLE,
  a29 DOUBLE,
  a30 DOUBLE,
  a31 DOUBLE
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
DELETE FROM "sqlnb_scoring"
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
  CAST(l.label AS VARCHAR) AS label,
  SUM(l.weight) AS n_docs
FROM (
  SELECT
    l.doc_id AS doc_id,
    l.label AS label,
    l.weight AS weight,
    c.class_id AS class_id
  FROM (
    SELECT DISTINCT
      "doc_id" AS doc_id,
      "label" AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM "labels" AS s
  ) AS l
  JOIN (
    SELECT
      v.label AS label,
      DENSE_RANK() OVER (ORDER BY v.label) - 1 AS class_id
    FROM (
      SELECT DISTINCT
        x.label AS label
      FROM (
        SELECT DISTINCT
          "doc_id" AS doc_id,
          "label" AS label,
          CAST(1 AS DOUBLE) AS weight
        FROM "labels" AS s
      ) AS x
    ) AS v
  ) AS c
    ON c.label = l.label
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
  SELECT DISTINCT
    x.doc_id AS doc_id,
    x.word AS word
  FROM (
    SELECT
      "doc_id" AS doc_id,
      CAST("word" AS VARCHAR) AS word,
      CAST("count" AS DOUBLE) AS count
    FROM "tokens" AS s
  ) AS x
  WHERE
    x.count > 0
) AS t
JOIN (
  SELECT
    l.doc_id AS doc_id,
    l.label AS label,
    l.weight AS weight,
    c.class_id AS class_id
  FROM (
    SELECT DISTINCT
      "doc_id" AS doc_id,
      "label" AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM "labels" AS s
  ) AS l
  JOIN (
    SELECT
      v.label AS label,
      DENSE_RANK() OVER (ORDER BY v.label) - 1 AS class_id
    FROM (
      SELECT DISTINCT
        x.label AS label
      FROM (
        SELECT DISTINCT
          "doc_id" AS doc_id,
          "label" AS label,
          CAST(1 AS DOUBLE) AS weight
        FROM "labels" AS s
      ) AS x
    ) AS v
  ) AS c
    ON c.label = l.label
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
    CAST(c.n_docs + CAST(0.0 AS DOUBLE) AS DOUBLE) AS weight,
    CAST(SUM(c.n_docs + CAST(0.0 AS DOUBLE)) OVER () AS DOUBLE) AS total
  FROM sqlnb_classes AS c
  WHERE
    c.model = 'spam'
) AS w;
INSERT INTO "sqlnb_scoring" (
  model,
  word,
  base,
  w0,
  w1,
  a0,
  a1
)
SELECT
  'spam' AS model,
  p.word AS word,
  0 AS base,
  CASE
    WHEN COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE) > 0
    AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
    THEN LN(COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE)) - LN(s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE))
  END AS w0,
  CASE
    WHEN COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE) > 0
    AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
    THEN LN(COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE)) - LN(s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE))
  END AS w1,
  CASE
    WHEN s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE) > 0
    AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
    THEN LN(s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS DOUBLE)) - LN(s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE))
  END AS a0,
  CASE
    WHEN s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE) > 0
    AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
    THEN LN(s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS DOUBLE)) - LN(s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE))
  END AS a1
FROM (
  SELECT
    SUM(CASE WHEN w.class_id = 0 THEN w.count END) AS c0,
    SUM(CASE WHEN w.class_id = 1 THEN w.count END) AS c1,
    SUM(w.count) AS total,
    CAST(COUNT(*) OVER () AS DOUBLE) AS vocabulary,
    SUM(SUM(w.count)) OVER () AS grand_total,
    w.word AS word
  FROM (
    SELECT
      class_id,
      word,
      count
    FROM sqlnb_word_counts
    WHERE
      model = 'spam'
  ) AS w
  GROUP BY
    w.word
) AS p
CROSS JOIN (
  SELECT
    *
  FROM (
    SELECT
      SUM(CASE WHEN c.class_id = 0 THEN c.n_docs END) AS n0,
      SUM(CASE WHEN c.class_id = 1 THEN c.n_docs END) AS n1
    FROM (
      SELECT
        class_id,
        n_docs
      FROM sqlnb_classes
      WHERE
        model = 'spam'
    ) AS c
  ) AS n
  CROSS JOIN (
    SELECT
      SUM(CASE WHEN g.class_id = 0 THEN g.count END) AS t0,
      SUM(CASE WHEN g.class_id = 1 THEN g.count END) AS t1
    FROM (
      SELECT
        class_id,
        SUM(count) AS count
      FROM sqlnb_word_counts
      WHERE
        model = 'spam'
      GROUP BY
        class_id
    ) AS g
  ) AS t
) AS s;
INSERT INTO "sqlnb_log_theta" (
  model,
  class_id,
  label,
  word,
  log_theta
)
SELECT
  s.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  s.word AS word,
  CASE c.class_id - s.base WHEN 0 THEN s.w0 WHEN 1 THEN s.w1 END AS log_theta
FROM "sqlnb_scoring" AS s
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c
  ON c.class_id - c.class_id % 32 = s.base
WHERE
  s.model = 'spam';
INSERT INTO "sqlnb_log_absent" (
  model,
  class_id,
  word,
  log_absent
)
SELECT
  s.model AS model,
  c.class_id AS class_id,
  s.word AS word,
  CASE c.class_id - s.base WHEN 0 THEN s.a0 WHEN 1 THEN s.a1 END AS log_absent
FROM "sqlnb_scoring" AS s
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c
  ON c.class_id - c.class_id % 32 = s.base
WHERE
  s.model = 'spam';
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
      COUNT(*) AS n_features
    FROM sqlnb_scoring AS s
    WHERE
      s.model = 'spam' AND s.base = 0
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
