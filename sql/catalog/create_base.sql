-- Derived (text kinds): per class the base of the joint log-likelihood, what a document with no
-- known word scores: the log prior (complement: 0; Bernoulli: plus the sum of log(1 - theta)
-- over the vocabulary, as if every word were absent). n_zero counts its probability-0 factors
-- (a prior of 0; for Bernoulli, words certain in the class). presence: a word counts once
-- however often it occurs, with weight log theta - log(1 - theta) (Bernoulli).
CREATE TABLE IF NOT EXISTS sqlnb_base (
  model VARCHAR,
  class_id BIGINT,
  score DOUBLE,
  n_zero BIGINT,
  presence BOOLEAN
)
