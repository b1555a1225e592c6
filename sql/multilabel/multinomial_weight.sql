-- Multi-label multinomial weight of one label for one word: the log odds of the word under the
-- label's binary Naive Bayes ("label" against "not label"), log theta of the label minus log
-- theta of the rest. $count = N_lw and $total = N_l the label's counts, $word_total the word's
-- count over all training documents, $all every count, $size the vocabulary: the rest's counts
-- are the totals minus the label's.
SELECT
  LN($count + $alpha) - LN($total + $alpha * $size)
    - LN($word_total - $count + $alpha) + LN($all - $total + $alpha * $size) AS weight
