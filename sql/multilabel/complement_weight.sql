-- Multi-label complement weight of one label for one word: ComplementNB's weight of "label"
-- minus that of "not label" (each class's weights come from the other's counts, so without
-- $norm it is the multinomial log odds; with $norm each class's logged weights are divided by
-- their sum over the words).
SELECT
  CASE
    WHEN $norm
      THEN (LN($word_total - $count + $alpha) - LN($all - $total + $alpha * $size))
        / SUM(LN($word_total - $count + $alpha) - LN($all - $total + $alpha * $size)) OVER ()
        - (LN($count + $alpha) - LN($total + $alpha * $size))
        / SUM(LN($count + $alpha) - LN($total + $alpha * $size)) OVER ()
    ELSE LN($count + $alpha) - LN($total + $alpha * $size)
      - LN($word_total - $count + $alpha) + LN($all - $total + $alpha * $size)
  END AS weight
