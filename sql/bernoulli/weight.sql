-- Bernoulli log theta of one class k for one word: theta_kw = (n_kw + alpha) / (N_k + alpha +
-- beta), $count = n_kw the class's documents containing the word, $docs = N_k the class's
-- documents: the mean of a Beta(alpha, beta) prior updated by the counts. NULL where theta = 0.
SELECT
  CASE
    WHEN $count + $alpha > 0 AND $docs + $alpha + $beta > 0
      THEN LN($count + $alpha) - LN($docs + $alpha + $beta)
  END AS weight
