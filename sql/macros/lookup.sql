-- A text model as one row of lists, for DuckDB's sqlnb_classify and sqlnb_proba: with it
-- sql/macros/scores.sql looks a text's words up with list functions, so that a macro scores its
-- text in a projection, without a join or an aggregate. Built by each query from the model's
-- tables (sqlnb_scoring, sqlnb_base, sqlnb_classes, sqlnb_tokenizers); $model is its name.
--   words: the vocabulary, grouped by hash bucket (sql/macros/bucket.sql, $bucket), with four
--     buckets per word, so that most buckets hold one word or none; owner: each word's bucket;
--   start: per bucket, the position in words of its first word, negative if the bucket holds
--     more than one (0 if none); longest: the most words a bucket holds;
--   weight, zero: per class (in class order), a list in the order of words: the word's weight
--     and its number of factors of probability 0 ($weights: sql/macros/weights.sql); zeros:
--     whether any is not 0;
--   base, base_zero, presence: sqlnb_base's per-class base and whether a word counts once;
--   labels: the classes' labels, in class order; settings: the model's tokenizer;
--   idf, sublinear, norm: the model's document transform (sqlnb_transform: per word in the
--     order of words, and its settings); transformed: whether it has one (rows there);
--   scale: the model's T (1 unless its calibration scales: $steps, sql/calibrate/steps.sql);
--     calibrated: whether its calibration maps; cal_method, cal_lo, cal_a, cal_b: per class (in
--     class order) its map's method and lists of lo, a and b in the order of lo (NULL for a
--     class without: the first class of two).
-- Each list is one aggregate over the rows it lists (a LIST costs about 0.1 microsecond an
-- element: the dense start list, four entries a word, is most of the row's cost).
WITH
  classes AS (
    SELECT c.class_id AS class_id, c.label AS label
    FROM sqlnb_classes AS c
    WHERE c.model = $model
  ),
  weights AS (SELECT * FROM $weights AS w),
  size AS (
    SELECT CAST(4 * COUNT(DISTINCT w.word) + 1 AS UBIGINT) AS buckets FROM weights AS w
  ),
  vocabulary AS (
    SELECT v.word AS word, v.bucket AS bucket, ROW_NUMBER() OVER (ORDER BY v.bucket, v.word) AS pos
    FROM (
      SELECT DISTINCT w.word AS word, $bucket AS bucket
      FROM weights AS w
      CROSS JOIN size AS z
    ) AS v
  ),
  occupied AS (
    SELECT
      v.bucket AS bucket,
      CASE WHEN COUNT(*) > 1 THEN -MIN(v.pos) ELSE MIN(v.pos) END AS start,
      COUNT(*) AS cnt
    FROM vocabulary AS v
    GROUP BY v.bucket
  )
SELECT
  z.buckets AS buckets,
  v.words AS words,
  v.owner AS owner,
  s.start AS start,
  s.longest AS longest,
  o.weight AS weight,
  o.zero AS zero,
  x.zeros AS zeros,
  b.base AS base,
  b.base_zero AS base_zero,
  b.presence AS presence,
  c.labels AS labels,
  t.settings AS settings,
  f.idf AS idf,
  f.sublinear AS sublinear,
  f.norm AS norm,
  COALESCE(f.transformed, FALSE) AS transformed,
  k.scale AS scale,
  k.calibrated AS calibrated,
  k.cal_method AS cal_method,
  k.cal_lo AS cal_lo,
  k.cal_a AS cal_a,
  k.cal_b AS cal_b
FROM size AS z
CROSS JOIN (
  SELECT LIST(v.word ORDER BY v.pos) AS words, LIST(v.bucket ORDER BY v.pos) AS owner
  FROM vocabulary AS v
) AS v
CROSS JOIN (
  SELECT LIST(COALESCE(g.start, 0) ORDER BY r.range) AS start, MAX(g.cnt) AS longest
  FROM size AS z
  CROSS JOIN RANGE(CAST(z.buckets AS BIGINT)) AS r
  LEFT JOIN occupied AS g
    ON g.bucket = r.range + 1
) AS s
CROSS JOIN (
  SELECT LIST(p.weight ORDER BY p.class_id) AS weight, LIST(p.zero ORDER BY p.class_id) AS zero
  FROM (
    SELECT
      w.class_id AS class_id,
      LIST(w.weight ORDER BY v.pos) AS weight,
      LIST(w.zero ORDER BY v.pos) AS zero
    FROM weights AS w
    JOIN vocabulary AS v
      ON v.word = w.word
    GROUP BY w.class_id
  ) AS p
) AS o
CROSS JOIN (
  SELECT COALESCE(BOOL_OR(w.zero <> 0), FALSE) AS zeros FROM weights AS w
) AS x
CROSS JOIN (
  SELECT
    LIST(b.score ORDER BY b.class_id) AS base,
    LIST(b.n_zero ORDER BY b.class_id) AS base_zero,
    BOOL_OR(b.presence) AS presence
  FROM sqlnb_base AS b
  WHERE b.model = $model
) AS b
CROSS JOIN (
  SELECT LIST(c.label ORDER BY c.class_id) AS labels FROM classes AS c
) AS c
CROSS JOIN (
  SELECT
    LIST(f.idf ORDER BY v.pos) AS idf,
    BOOL_OR(f.sublinear) AS sublinear,
    MAX(f.norm) AS norm,
    COUNT(*) > 0 AS transformed
  FROM vocabulary AS v
  JOIN sqlnb_transform AS f
    ON f.model = $model AND f.word = v.word
) AS f
CROSS JOIN (
  SELECT
    COALESCE(MAX(q.t), CAST(1 AS DOUBLE)) AS scale,
    COALESCE(MAX(q.n), 0) > 0 AS calibrated,
    LIST(q.method ORDER BY q.class_id) AS cal_method,
    LIST(q.lo ORDER BY q.class_id) AS cal_lo,
    LIST(q.a ORDER BY q.class_id) AS cal_a,
    LIST(q.b ORDER BY q.class_id) AS cal_b
  FROM (
    SELECT
      c.class_id AS class_id,
      MAX(k.scale) AS t,
      COUNT(CASE WHEN k.mapped THEN 1 END) AS n,
      MAX(CASE WHEN k.mapped THEN k.method END) AS method,
      LIST(k.lo ORDER BY k.lo) FILTER (WHERE k.mapped) AS lo,
      LIST(k.a ORDER BY k.lo) FILTER (WHERE k.mapped) AS a,
      LIST(k.b ORDER BY k.lo) FILTER (WHERE k.mapped) AS b
    FROM classes AS c
    LEFT JOIN $steps AS k
      ON k.model = $model AND k.class_id = c.class_id
    GROUP BY c.class_id
  ) AS q
) AS k
LEFT JOIN sqlnb_tokenizers AS t
  ON t.model = $model
