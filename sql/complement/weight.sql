-- Complement Naive Bayes weight of one class k for one word (Rennie et al. 2003), as
-- scikit-learn's ComplementNB feature_log_prob_: with comp_kw = $word_total + alpha - $count
-- (the word's count in the other classes, smoothed),
--   logged_kw = ln(comp_kw) - ln($all + alpha * $size - $total) (every other class's count),
--   weight_kw = logged_kw / (sum over words of logged_kw) with $norm, else -logged_kw.
-- alpha > 0 is required, so every logarithm is of a positive number.
SELECT
  CASE
    WHEN $norm
      THEN (LN($word_total + $alpha - $count) - LN($all + $alpha * $size - $total))
        / SUM(LN($word_total + $alpha - $count) - LN($all + $alpha * $size - $total)) OVER ()
    ELSE LN($all + $alpha * $size - $total) - LN($word_total + $alpha - $count)
  END AS weight
