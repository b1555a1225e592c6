-- A text model as one row of lists, for DuckDB's sqlnb_classify and sqlnb_proba: with it
-- sql/macros/scores.sql looks a text's words up with list functions, so that a macro scores its
-- text in a projection, without a join or an aggregate. Built by each query from the model's
-- tables (sqlnb_scoring, sqlnb_base, sqlnb_classes, sqlnb_tokenizers); $model is its name.
--   words: the vocabulary, grouped by hash bucket (sql/macros/bucket.sql, $bucket), with four
--     buckets per word, so that most buckets hold one word or none;
--   start, cnt: per bucket, the position in words of its first word (0 if none), its words;
--   weight, zero: per class (in class order), a list in the order of words: the word's weight
--     (for Bernoulli log theta - log(1 - theta), its rows of sqlnb_scoring's two blocks added
--     up as sqlnb.kinds.wide.parts adds them) and its number of factors of probability 0
--     (a NULL weight adds one, a NULL log(1 - theta) takes one); zeros: whether any is not 0;
--   base, base_zero, presence: sqlnb_base's per-class base and whether a word counts once;
--   k: the number of classes; labels: theirs, in class order; settings: the model's tokenizer.
-- $weight is the column of class c in the block row s; $block the first class of c's block.
WITH
  classes AS (
    SELECT c.class_id AS class_id, c.label AS label
    FROM sqlnb_classes AS c
    WHERE c.model = $model
  ),
  weights AS (
    SELECT
      s.word AS word,
      c.class_id AS class_id,
      SUM(CASE WHEN s.base < 0 THEN -1 ELSE 1 END * COALESCE($weight, 0)) AS weight,
      SUM(CASE WHEN $weight IS NULL THEN CASE WHEN s.base < 0 THEN -1 ELSE 1 END ELSE 0 END) AS zero
    FROM sqlnb_scoring AS s
    JOIN classes AS c
      ON $block = CASE WHEN s.base < 0 THEN -1 - s.base ELSE s.base END
    WHERE s.model = $model
    GROUP BY s.word, c.class_id
  ),
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
  slots AS (
    SELECT r.range + 1 AS bucket, COALESCE(MIN(v.pos), 0) AS start, COUNT(v.pos) AS cnt
    FROM size AS z
    CROSS JOIN RANGE(CAST(z.buckets AS BIGINT)) AS r
    LEFT JOIN vocabulary AS v
      ON v.bucket = r.range + 1
    GROUP BY r.range
  ),
  ordered AS (
    SELECT
      w.class_id AS class_id,
      LIST(w.weight ORDER BY v.pos) AS weight,
      LIST(w.zero ORDER BY v.pos) AS zero
    FROM weights AS w
    JOIN vocabulary AS v
      ON v.word = w.word
    GROUP BY w.class_id
  )
SELECT
  (SELECT z.buckets FROM size AS z) AS buckets,
  (SELECT LIST(v.word ORDER BY v.pos) FROM vocabulary AS v) AS words,
  (SELECT LIST(s.start ORDER BY s.bucket) FROM slots AS s) AS start,
  (SELECT LIST(s.cnt ORDER BY s.bucket) FROM slots AS s) AS cnt,
  (SELECT LIST(o.weight ORDER BY o.class_id) FROM ordered AS o) AS weight,
  (SELECT LIST(o.zero ORDER BY o.class_id) FROM ordered AS o) AS zero,
  (SELECT COALESCE(BOOL_OR(w.zero <> 0), FALSE) FROM weights AS w) AS zeros,
  (SELECT LIST(b.score ORDER BY b.class_id) FROM sqlnb_base AS b WHERE b.model = $model) AS base,
  (SELECT LIST(b.n_zero ORDER BY b.class_id) FROM sqlnb_base AS b WHERE b.model = $model) AS base_zero,
  (SELECT BOOL_OR(b.presence) FROM sqlnb_base AS b WHERE b.model = $model) AS presence,
  (SELECT COUNT(*) FROM classes AS c) AS k,
  (SELECT LIST(c.label ORDER BY c.class_id) FROM classes AS c) AS labels,
  (SELECT t.settings FROM sqlnb_tokenizers AS t WHERE t.model = $model) AS settings
