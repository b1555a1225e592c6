BEGIN TRANSACTION;
CREATE TABLE IF NOT EXISTS sqlnb_models (
  model STRING,
  kind STRING,
  params STRING,
  label_type STRING,
  n_docs FLOAT64,
  n_classes INT64,
  n_features INT64,
  trained_at DATETIME,
  version STRING
);
CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model STRING,
  class_id INT64,
  label STRING,
  n_docs FLOAT64
);
CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model STRING,
  class_id INT64,
  label STRING,
  log_prior FLOAT64
);
CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model STRING,
  class_id INT64,
  word STRING,
  count FLOAT64
);
CREATE TABLE IF NOT EXISTS sqlnb_log_theta (
  model STRING,
  class_id INT64,
  label STRING,
  word STRING,
  log_theta FLOAT64
);
CREATE TABLE IF NOT EXISTS sqlnb_log_absent (
  model STRING,
  class_id INT64,
  word STRING,
  log_absent FLOAT64
);
CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model STRING,
  word STRING,
  base INT64,
  w0 FLOAT64,
  w1 FLOAT64,
  w2 FLOAT64,
  w3 FLOAT64,
  w4 FLOAT64,
  w5 FLOAT64,
  w6 FLOAT64,
  w7 FLOAT64,
  w8 FLOAT64,
  w9 FLOAT64,
  w10 FLOAT64,
  w11 FLOAT64,
  w12 FLOAT64,
  w13 FLOAT64,
  w14 FLOAT64,
  w15 FLOAT64,
  w16 FLOAT64,
  w17 FLOAT64,
  w18 FLOAT64,
  w19 FLOAT64,
  w20 FLOAT64,
  w21 FLOAT64,
  w22 FLOAT64,
  w23 FLOAT64,
  w24 FLOAT64,
  w25 FLOAT64,
  w26 FLOAT64,
  w27 FLOAT64,
  w28 FLOAT64,
  w29 FLOAT64,
  w30 FLOAT64,
  w31 FLOAT64,
  a0 FLOAT64,
  a1 FLOAT64,
  a2 FLOAT64,
  a3 FLOAT64,
  a4 FLOAT64,
  a5 FLOAT64,
  a6 FLOAT64,
  a7 FLOAT64,
  a8 FLOAT64,
  a9 FLOAT64,
  a10 FLOAT64,
  a11 FLOAT64,
  a12 FLOAT64,
  a13 FLOAT64,
  a14 FLOAT64,
  a15 FLOAT64,
  a16 FLOAT64,
  a17 FLOAT64,
  a18 FLOAT64,
  a19 FLOAT64,
  a20 FLOAT64,
  a21 FLOAT64,
  a22 FLOAT64,
  a23 FLOAT64,
  a24 FLOAT64,
  a25 FLOAT64,
  a26 FLOAT64,
  a27 FLOAT64,
  a28 FLOAT64,
  a29 FLOAT64,
  a30 FLOAT64,
  a31 FLOAT64
);
DELETE FROM `sqlnb_models`
WHERE
  model = 'spam';
DELETE FROM `sqlnb_classes`
WHERE
  model = 'spam';
DELETE FROM `sqlnb_log_absent`
WHERE
  model = 'spam';
DELETE FROM `sqlnb_log_theta`
WHERE
  model = 'spam';
DELETE FROM `sqlnb_prior`
WHERE
  model = 'spam';
DELETE FROM `sqlnb_scoring`
WHERE
  model = 'spam';
DELETE FROM `sqlnb_word_counts`
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
  CAST(l.label AS STRING) AS label,
  SUM(l.weight) AS n_docs
FROM (
  SELECT
    l.doc_id AS doc_id,
    l.label AS label,
    l.weight AS weight,
    c.class_id AS class_id
  FROM (
    SELECT DISTINCT
      `doc_id` AS doc_id,
      `label` AS label,
      CAST(1 AS FLOAT64) AS weight
    FROM `labels` AS s
  ) AS l
  JOIN (
    SELECT
      v.label AS label,
      DENSE_RANK() OVER (ORDER BY v.label NULLS LAST) - 1 AS class_id
    FROM (
      SELECT DISTINCT
        x.label AS label
      FROM (
        SELECT DISTINCT
          `doc_id` AS doc_id,
          `label` AS label,
          CAST(1 AS FLOAT64) AS weight
        FROM `labels` AS s
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
      `doc_id` AS doc_id,
      CAST(`word` AS STRING) AS word,
      CAST(`count` AS FLOAT64) AS count
    FROM `tokens` AS s
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
      `doc_id` AS doc_id,
      `label` AS label,
      CAST(1 AS FLOAT64) AS weight
    FROM `labels` AS s
  ) AS l
  JOIN (
    SELECT
      v.label AS label,
      DENSE_RANK() OVER (ORDER BY v.label NULLS LAST) - 1 AS class_id
    FROM (
      SELECT DISTINCT
        x.label AS label
      FROM (
        SELECT DISTINCT
          `doc_id` AS doc_id,
          `label` AS label,
          CAST(1 AS FLOAT64) AS weight
        FROM `labels` AS s
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
    CAST(c.n_docs + CAST(0.0 AS FLOAT64) AS FLOAT64) AS weight,
    CAST(SUM(c.n_docs + CAST(0.0 AS FLOAT64)) OVER () AS FLOAT64) AS total
  FROM sqlnb_classes AS c
  WHERE
    c.model = 'spam'
) AS w;
INSERT INTO `sqlnb_scoring` (
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
    WHEN COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64) > 0
    AND s.n0 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
    THEN LN(COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64)) - LN(s.n0 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64))
  END AS w0,
  CASE
    WHEN COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64) > 0
    AND s.n1 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
    THEN LN(COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64)) - LN(s.n1 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64))
  END AS w1,
  CASE
    WHEN s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64) > 0
    AND s.n0 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
    THEN LN(s.n0 - COALESCE(p.c0, 0) + CAST(1.0 AS FLOAT64)) - LN(s.n0 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64))
  END AS a0,
  CASE
    WHEN s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64) > 0
    AND s.n1 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64) > 0
    THEN LN(s.n1 - COALESCE(p.c1, 0) + CAST(1.0 AS FLOAT64)) - LN(s.n1 + CAST(1.0 AS FLOAT64) + CAST(1.0 AS FLOAT64))
  END AS a1
FROM (
  SELECT
    SUM(CASE WHEN w.class_id = 0 THEN w.count END) AS c0,
    SUM(CASE WHEN w.class_id = 1 THEN w.count END) AS c1,
    SUM(w.count) AS total,
    CAST(COUNT(*) OVER () AS FLOAT64) AS vocabulary,
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
INSERT INTO `sqlnb_log_theta` (
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
FROM `sqlnb_scoring` AS s
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c
  ON c.class_id - MOD(c.class_id, 32) = s.base
WHERE
  s.model = 'spam';
INSERT INTO `sqlnb_log_absent` (
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
FROM `sqlnb_scoring` AS s
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c
  ON c.class_id - MOD(c.class_id, 32) = s.base
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
  CURRENT_TIMESTAMP() AS trained_at,
  '<version>' AS version
FROM (
  SELECT
    SUM(n_docs) AS n_docs,
    COUNT(*) AS n_classes
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c;
COMMIT TRANSACTION;
