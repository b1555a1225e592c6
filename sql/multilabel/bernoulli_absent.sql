-- Multi-label Bernoulli log(1 - theta) of one label for one word minus that of the rest (the
-- rest's documents without the word: all minus the label's minus the word's other documents).
SELECT
  LN($docs - $count + $beta) - LN($docs + $alpha + $beta)
    - LN($n_all - $docs - $word_total + $count + $beta) + LN($n_all - $docs + $alpha + $beta)
    AS absent
