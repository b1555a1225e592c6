-- One Gaussian feature's share of the joint log-likelihood of a row in a class:
-- -ln(2 pi var) / 2 - (x - mean)^2 / (2 var), nothing where $x is missing or the class has no
-- parameters for the feature (no training value). ln(2 pi) is a literal (no PI() everywhere).
SELECT
  CASE
    WHEN $x IS NULL OR $var IS NULL THEN CAST(0 AS DOUBLE)
    ELSE CAST(-0.5 AS DOUBLE) * (CAST(1.8378770664093453 AS DOUBLE) + LN($var))
      - CAST(0.5 AS DOUBLE) * ($x - $mean) * ($x - $mean) / $var
  END AS term
