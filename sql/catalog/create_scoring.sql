-- Derived, for scoring text models: their weights in a wide layout (sqlnb/kinds/wide.py), one
-- row per word and block of 8 classes. Class base + j has its weight in w<j> (log theta; for
-- complement the weight); for Bernoulli, log(1 - theta) of class base + j is in w<j> of the
-- word's row with base -1 - base. NULL means -infinity (and, past a model's last class, no
-- class). The readable long form of the same numbers is the views sqlnb_log_theta and
-- sqlnb_log_absent.
CREATE TABLE IF NOT EXISTS sqlnb_scoring (
  model VARCHAR,
  word VARCHAR,
  base BIGINT,
  w0 DOUBLE,
  w1 DOUBLE,
  w2 DOUBLE,
  w3 DOUBLE,
  w4 DOUBLE,
  w5 DOUBLE,
  w6 DOUBLE,
  w7 DOUBLE
)
