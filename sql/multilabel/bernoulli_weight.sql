-- Multi-label Bernoulli log theta of one label for one word minus that of the rest: $count = n_lw
-- the label's documents with the word, $docs = N_l the label's documents, $word_total the
-- training documents with the word, $n_all all training documents.
SELECT
  LN($count + $alpha) - LN($docs + $alpha + $beta)
    - LN($word_total - $count + $alpha) + LN($n_all - $docs + $alpha + $beta) AS weight
