BEGIN TRANSACTION;
CREATE TABLE IF NOT EXISTS sqlnb_models (
  model TEXT,
  kind TEXT,
  params TEXT,
  label_type TEXT,
  n_docs DOUBLE,
  n_classes BIGINT,
  n_features BIGINT,
  trained_at TIMESTAMP,
  version TEXT
);
CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model TEXT,
  class_id BIGINT,
  label TEXT,
  n_docs DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_prior (
  model TEXT,
  class_id BIGINT,
  label TEXT,
  log_prior DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_tokenizers (
  model TEXT,
  settings TEXT,
  lowercase BOOLEAN,
  pattern TEXT,
  ngram_min BIGINT,
  ngram_max BIGINT
);
CREATE TABLE IF NOT EXISTS sqlnb_calibration (
  model TEXT,
  method TEXT,
  class_id BIGINT,
  lo DOUBLE,
  hi DOUBLE,
  a DOUBLE,
  b DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_word_counts (
  model TEXT,
  class_id BIGINT,
  word TEXT,
  count DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_doc_freq (
  model TEXT,
  word TEXT,
  df DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_doc_count (
  model TEXT,
  n DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model TEXT,
  word TEXT,
  base BIGINT,
  w0 DOUBLE,
  w1 DOUBLE,
  w2 DOUBLE,
  w3 DOUBLE,
  w4 DOUBLE,
  w5 DOUBLE,
  w6 DOUBLE,
  w7 DOUBLE
);
CREATE TABLE IF NOT EXISTS sqlnb_base (
  model TEXT,
  class_id BIGINT,
  score DOUBLE,
  n_zero BIGINT,
  presence BOOLEAN
);
CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model TEXT,
  word TEXT,
  idf DOUBLE,
  sublinear BOOLEAN,
  norm TEXT
);
CREATE VIEW IF NOT EXISTS sqlnb_log_theta AS
SELECT
  s.model AS model,
  c.class_id AS class_id,
  c.label AS label,
  s.word AS word,
  CASE c.class_id % 8
    WHEN 0
    THEN s.w0
    WHEN 1
    THEN s.w1
    WHEN 2
    THEN s.w2
    WHEN 3
    THEN s.w3
    WHEN 4
    THEN s.w4
    WHEN 5
    THEN s.w5
    WHEN 6
    THEN s.w6
    WHEN 7
    THEN s.w7
  END AS log_theta
FROM sqlnb_scoring AS s
JOIN sqlnb_classes AS c
  ON c.model = s.model AND c.class_id - c.class_id % 8 = s.base;
CREATE VIEW IF NOT EXISTS sqlnb_log_absent AS
SELECT
  s.model AS model,
  c.class_id AS class_id,
  s.word AS word,
  CASE c.class_id % 8
    WHEN 0
    THEN s.w0
    WHEN 1
    THEN s.w1
    WHEN 2
    THEN s.w2
    WHEN 3
    THEN s.w3
    WHEN 4
    THEN s.w4
    WHEN 5
    THEN s.w5
    WHEN 6
    THEN s.w6
    WHEN 7
    THEN s.w7
  END AS log_absent
FROM sqlnb_scoring AS s
JOIN sqlnb_classes AS c
  ON c.model = s.model AND -1 - (
    c.class_id - c.class_id % 8
  ) = s.base;
DELETE FROM "sqlnb_models"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_base"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_calibration"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_classes"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_doc_count"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_doc_freq"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_prior"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_scoring"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_tokenizers"
WHERE
  model = 'spam';
DELETE FROM "sqlnb_transform"
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
  c.class_id AS class_id,
  g.word AS word,
  g.count AS count
FROM (
  SELECT
    l.label AS label,
    t.word AS word,
    SUM(l.weight) AS count
  FROM (
    SELECT DISTINCT
      x.doc_id AS doc_id,
      x.word AS word
    FROM (
      SELECT
        "doc_id" AS doc_id,
        CAST("word" AS TEXT) AS word,
        CAST("count" AS DOUBLE) AS count
      FROM "tokens" AS s
    ) AS x
    WHERE
      x.count > 0
  ) AS t
  JOIN (
    SELECT DISTINCT
      "doc_id" AS doc_id,
      "label" AS label,
      CAST(1 AS DOUBLE) AS weight
    FROM "labels" AS s
  ) AS l
    ON l.doc_id = t.doc_id
  GROUP BY
    l.label,
    t.word
) AS g
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
  ON c.label = g.label;
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
  w2,
  w3,
  w4,
  w5,
  w6,
  w7
)
WITH sqlnb_blocks AS (
  SELECT
    *,
    LN(s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h0,
    LN(s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h1,
    LN(s.n2 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h2,
    LN(s.n3 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h3,
    LN(s.n4 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h4,
    LN(s.n5 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h5,
    LN(s.n6 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h6,
    LN(s.n7 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h7,
    LN(s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h8,
    LN(s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h9,
    LN(s.n2 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h10,
    LN(s.n3 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h11,
    LN(s.n4 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h12,
    LN(s.n5 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h13,
    LN(s.n6 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h14,
    LN(s.n7 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE)) AS h15
  FROM (
    SELECT
      g.base AS base,
      SUM(CASE WHEN g.slot = 0 THEN g.total END) AS t0,
      SUM(CASE WHEN g.slot = 1 THEN g.total END) AS t1,
      SUM(CASE WHEN g.slot = 2 THEN g.total END) AS t2,
      SUM(CASE WHEN g.slot = 3 THEN g.total END) AS t3,
      SUM(CASE WHEN g.slot = 4 THEN g.total END) AS t4,
      SUM(CASE WHEN g.slot = 5 THEN g.total END) AS t5,
      SUM(CASE WHEN g.slot = 6 THEN g.total END) AS t6,
      SUM(CASE WHEN g.slot = 7 THEN g.total END) AS t7,
      SUM(CASE WHEN g.slot = 0 THEN g.n_docs END) AS n0,
      SUM(CASE WHEN g.slot = 1 THEN g.n_docs END) AS n1,
      SUM(CASE WHEN g.slot = 2 THEN g.n_docs END) AS n2,
      SUM(CASE WHEN g.slot = 3 THEN g.n_docs END) AS n3,
      SUM(CASE WHEN g.slot = 4 THEN g.n_docs END) AS n4,
      SUM(CASE WHEN g.slot = 5 THEN g.n_docs END) AS n5,
      SUM(CASE WHEN g.slot = 6 THEN g.n_docs END) AS n6,
      SUM(CASE WHEN g.slot = 7 THEN g.n_docs END) AS n7,
      MAX(z.vocabulary) AS vocabulary,
      MAX(z.grand_total) AS grand_total
    FROM (
      SELECT
        c.class_id - c.class_id % 8 AS base,
        c.class_id % 8 AS slot,
        c.n_docs AS n_docs,
        SUM(k.count) AS total
      FROM sqlnb_classes AS c
      LEFT JOIN (
        SELECT
          class_id,
          word,
          count
        FROM sqlnb_word_counts
        WHERE
          model = 'spam'
      ) AS k
        ON k.class_id = c.class_id
      WHERE
        c.model = 'spam'
      GROUP BY
        c.class_id,
        c.n_docs
    ) AS g
    CROSS JOIN (
      SELECT
        CAST(COUNT(DISTINCT word) AS DOUBLE) AS vocabulary,
        SUM(count) AS grand_total
      FROM (
        SELECT
          class_id,
          word,
          count
        FROM sqlnb_word_counts
        WHERE
          model = 'spam'
      ) AS w
    ) AS z
    GROUP BY
      g.base
  ) AS s
)
SELECT
  *
FROM (
  SELECT
    'spam' AS model,
    p.word AS word,
    s.base AS base,
    CASE
      WHEN NOT s.n0 IS NULL
      THEN CASE
        WHEN COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE)) - s.h0
      END
    END AS w0,
    CASE
      WHEN NOT s.n1 IS NULL
      THEN CASE
        WHEN COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE)) - s.h1
      END
    END AS w1,
    CASE
      WHEN NOT s.n2 IS NULL
      THEN CASE
        WHEN COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n2 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE)) - s.h2
      END
    END AS w2,
    CASE
      WHEN NOT s.n3 IS NULL
      THEN CASE
        WHEN COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n3 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE)) - s.h3
      END
    END AS w3,
    CASE
      WHEN NOT s.n4 IS NULL
      THEN CASE
        WHEN COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n4 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE)) - s.h4
      END
    END AS w4,
    CASE
      WHEN NOT s.n5 IS NULL
      THEN CASE
        WHEN COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n5 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE)) - s.h5
      END
    END AS w5,
    CASE
      WHEN NOT s.n6 IS NULL
      THEN CASE
        WHEN COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n6 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE)) - s.h6
      END
    END AS w6,
    CASE
      WHEN NOT s.n7 IS NULL
      THEN CASE
        WHEN COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n7 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE)) - s.h7
      END
    END AS w7
  FROM (
    SELECT
      SUM(w.count) AS total,
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
  CROSS JOIN sqlnb_blocks AS s
  LEFT JOIN (
    SELECT
      w.word AS word,
      w.class_id - w.class_id % 8 AS base,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 0 THEN w.count END) AS c0,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 1 THEN w.count END) AS c1,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 2 THEN w.count END) AS c2,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 3 THEN w.count END) AS c3,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 4 THEN w.count END) AS c4,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 5 THEN w.count END) AS c5,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 6 THEN w.count END) AS c6,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 7 THEN w.count END) AS c7
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
      w.word,
      w.class_id - w.class_id % 8
  ) AS q
    ON q.word = p.word AND q.base = s.base
  UNION ALL
  SELECT
    'spam' AS model,
    p.word AS word,
    -1 - s.base AS base,
    CASE
      WHEN NOT s.n0 IS NULL
      THEN CASE
        WHEN s.n0 - COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n0 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n0 - COALESCE(q.c0, 0) + CAST(1.0 AS DOUBLE)) - s.h8
      END
    END AS w0,
    CASE
      WHEN NOT s.n1 IS NULL
      THEN CASE
        WHEN s.n1 - COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n1 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n1 - COALESCE(q.c1, 0) + CAST(1.0 AS DOUBLE)) - s.h9
      END
    END AS w1,
    CASE
      WHEN NOT s.n2 IS NULL
      THEN CASE
        WHEN s.n2 - COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n2 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n2 - COALESCE(q.c2, 0) + CAST(1.0 AS DOUBLE)) - s.h10
      END
    END AS w2,
    CASE
      WHEN NOT s.n3 IS NULL
      THEN CASE
        WHEN s.n3 - COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n3 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n3 - COALESCE(q.c3, 0) + CAST(1.0 AS DOUBLE)) - s.h11
      END
    END AS w3,
    CASE
      WHEN NOT s.n4 IS NULL
      THEN CASE
        WHEN s.n4 - COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n4 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n4 - COALESCE(q.c4, 0) + CAST(1.0 AS DOUBLE)) - s.h12
      END
    END AS w4,
    CASE
      WHEN NOT s.n5 IS NULL
      THEN CASE
        WHEN s.n5 - COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n5 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n5 - COALESCE(q.c5, 0) + CAST(1.0 AS DOUBLE)) - s.h13
      END
    END AS w5,
    CASE
      WHEN NOT s.n6 IS NULL
      THEN CASE
        WHEN s.n6 - COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n6 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n6 - COALESCE(q.c6, 0) + CAST(1.0 AS DOUBLE)) - s.h14
      END
    END AS w6,
    CASE
      WHEN NOT s.n7 IS NULL
      THEN CASE
        WHEN s.n7 - COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE) > 0
        AND s.n7 + CAST(1.0 AS DOUBLE) + CAST(1.0 AS DOUBLE) > 0
        THEN LN(s.n7 - COALESCE(q.c7, 0) + CAST(1.0 AS DOUBLE)) - s.h15
      END
    END AS w7
  FROM (
    SELECT
      SUM(w.count) AS total,
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
  CROSS JOIN sqlnb_blocks AS s
  LEFT JOIN (
    SELECT
      w.word AS word,
      w.class_id - w.class_id % 8 AS base,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 0 THEN w.count END) AS c0,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 1 THEN w.count END) AS c1,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 2 THEN w.count END) AS c2,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 3 THEN w.count END) AS c3,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 4 THEN w.count END) AS c4,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 5 THEN w.count END) AS c5,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 6 THEN w.count END) AS c6,
      SUM(CASE WHEN (
        w.class_id % 8
      ) = 7 THEN w.count END) AS c7
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
      w.word,
      w.class_id - w.class_id % 8
  ) AS q
    ON q.word = p.word AND q.base = s.base
) AS r;
INSERT INTO sqlnb_base (
  model,
  class_id,
  score,
  n_zero,
  presence
)
SELECT
  p.model AS model,
  p.class_id AS class_id,
  p.log_prior + a.score AS score,
  CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END + a.n_zero AS n_zero,
  TRUE AS presence
FROM sqlnb_prior AS p
JOIN (
  SELECT
    c.class_id AS class_id,
    CASE c.class_id % 8
      WHEN 0
      THEN s.a0
      WHEN 1
      THEN s.a1
      WHEN 2
      THEN s.a2
      WHEN 3
      THEN s.a3
      WHEN 4
      THEN s.a4
      WHEN 5
      THEN s.a5
      WHEN 6
      THEN s.a6
      WHEN 7
      THEN s.a7
    END AS score,
    CASE c.class_id % 8
      WHEN 0
      THEN s.z0
      WHEN 1
      THEN s.z1
      WHEN 2
      THEN s.z2
      WHEN 3
      THEN s.z3
      WHEN 4
      THEN s.z4
      WHEN 5
      THEN s.z5
      WHEN 6
      THEN s.z6
      WHEN 7
      THEN s.z7
    END AS n_zero
  FROM (
    SELECT
      g.base AS base,
      SUM(g.a0) AS a0,
      SUM(g.z0) AS z0,
      SUM(g.a1) AS a1,
      SUM(g.z1) AS z1,
      SUM(g.a2) AS a2,
      SUM(g.z2) AS z2,
      SUM(g.a3) AS a3,
      SUM(g.z3) AS z3,
      SUM(g.a4) AS a4,
      SUM(g.z4) AS z4,
      SUM(g.a5) AS a5,
      SUM(g.z5) AS z5,
      SUM(g.a6) AS a6,
      SUM(g.z6) AS z6,
      SUM(g.a7) AS a7,
      SUM(g.z7) AS z7
    FROM (
      SELECT
        -1 - s.base AS base,
        SUBSTRING(s.word, 1, 2) AS bucket,
        SUM(COALESCE(s.w0, 0)) AS a0,
        SUM(CASE WHEN s.w0 IS NULL THEN 1 ELSE 0 END) AS z0,
        SUM(COALESCE(s.w1, 0)) AS a1,
        SUM(CASE WHEN s.w1 IS NULL THEN 1 ELSE 0 END) AS z1,
        SUM(COALESCE(s.w2, 0)) AS a2,
        SUM(CASE WHEN s.w2 IS NULL THEN 1 ELSE 0 END) AS z2,
        SUM(COALESCE(s.w3, 0)) AS a3,
        SUM(CASE WHEN s.w3 IS NULL THEN 1 ELSE 0 END) AS z3,
        SUM(COALESCE(s.w4, 0)) AS a4,
        SUM(CASE WHEN s.w4 IS NULL THEN 1 ELSE 0 END) AS z4,
        SUM(COALESCE(s.w5, 0)) AS a5,
        SUM(CASE WHEN s.w5 IS NULL THEN 1 ELSE 0 END) AS z5,
        SUM(COALESCE(s.w6, 0)) AS a6,
        SUM(CASE WHEN s.w6 IS NULL THEN 1 ELSE 0 END) AS z6,
        SUM(COALESCE(s.w7, 0)) AS a7,
        SUM(CASE WHEN s.w7 IS NULL THEN 1 ELSE 0 END) AS z7
      FROM "sqlnb_scoring" AS s
      WHERE
        s.model = 'spam' AND s.base < 0
      GROUP BY
        s.base,
        SUBSTRING(s.word, 1, 2)
    ) AS g
    GROUP BY
      g.base
  ) AS s
  JOIN (
    SELECT
      class_id
    FROM sqlnb_classes
    WHERE
      model = 'spam'
  ) AS c
    ON c.class_id - c.class_id % 8 = s.base
) AS a
  ON a.class_id = p.class_id
WHERE
  p.model = 'spam';
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
  '{"fit_prior": true, "class_prior": null, "prior_alpha": 0.0, "alpha": 1.0, "beta": null, "class_weight": null}' AS params,
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
