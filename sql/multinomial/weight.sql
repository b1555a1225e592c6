-- Multinomial log theta of one class k for one word (sqlnb/kinds/wide.py binds the class's
-- numbers): ln(N_kw + alpha) - ln(N_k + alpha * V), $count = N_kw, $total = N_k, $size = V the
-- number of distinct training words. NULL where theta = 0 (alpha = 0 and N_kw = 0, or a class
-- without tokens): -infinity.
SELECT
  CASE
    WHEN $count + $alpha > 0 AND $total + $alpha * $size > 0
      THEN LN($count + $alpha) - LN($total + $alpha * $size)
  END AS weight
