-- Bernoulli log(1 - theta) of one class k for one word: ln(N_k - n_kw + beta) - ln(N_k + alpha +
-- beta), computed from the counts (not from theta) so it keeps its digits when theta is near 1.
-- NULL where 1 - theta = 0 (-infinity: the word is certain in that class).
SELECT
  CASE
    WHEN $docs - $count + $beta > 0 AND $docs + $alpha + $beta > 0
      THEN LN($docs - $count + $beta) - LN($docs + $alpha + $beta)
  END AS absent
