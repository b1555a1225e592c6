-- Per window n of $windows (doc_id, window_start, n): tokens, the sum of the counts of the
-- window's $tokens (doc_id, word, count); unknown_rate, the counts of words not in model
-- $model's vocabulary over all counts; and js_divergence, the Jensen-Shannon divergence, log
-- base 2, between P, the training word distribution (every class's stored counts pooled,
-- p(w) = n(w) / N, unsmoothed) and Q, the window's (q(w) = c(w) / C, unknown words included):
-- M = (P + Q) / 2, JS = KL(P||M) / 2 + KL(Q||M) / 2. A word of P absent from the window adds
-- p log2(p / (p / 2)) = p to KL(P||M), so JS = 1/2 sum over the window's words of
-- [p log2(2p / (p + q)) + q log2(2q / (p + q))] + 1/2 (1 - sum over the window's words of p):
-- the vocabulary is joined to the window's words only, never crossed with the windows.
WITH vocabulary AS (
  SELECT
    c.word AS word,
    SUM(c.count) AS n
  FROM sqlnb_word_counts AS c
  WHERE c.model = $model
  GROUP BY c.word
), pooled AS (
  SELECT SUM(v.n) AS n FROM vocabulary AS v
), counted AS (
  SELECT
    w.n AS n,
    t.word AS word,
    SUM(t.count) AS c
  FROM $tokens AS t
  JOIN $windows AS w
    ON w.doc_id = t.doc_id
  GROUP BY w.n, t.word
), terms AS (
  SELECT
    k.n AS n,
    k.c AS c,
    k.c / SUM(k.c) OVER (PARTITION BY k.n) AS q,
    CASE WHEN v.n > 0 THEN v.n / p.n ELSE CAST(0 AS DOUBLE) END AS p,
    v.word IS NULL AS unknown
  FROM counted AS k
  LEFT JOIN vocabulary AS v
    ON v.word = k.word
  CROSS JOIN pooled AS p
)
SELECT
  t.n AS n,
  SUM(t.c) AS tokens,
  SUM(CASE WHEN t.unknown THEN t.c ELSE CAST(0 AS DOUBLE) END) / SUM(t.c) AS unknown_rate,
  (
    SUM(
      CASE WHEN t.p > 0 THEN t.p * LN(2 * t.p / (t.p + t.q)) ELSE CAST(0 AS DOUBLE) END
      + t.q * LN(2 * t.q / (t.p + t.q))
    ) / LN(2)
    + 1 - SUM(t.p)
  ) / 2 AS js_divergence
FROM terms AS t
WHERE t.c > 0
GROUP BY t.n
