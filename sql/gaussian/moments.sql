-- Gaussian sufficient statistics of one feature $x in one class, first pass (sqlnb/kinds/
-- gaussian.py repeats it for every feature of the wide rows): n, the summed sample $weight of
-- the rows where $x is not missing, and their weighted mean, summed as deviations from $shift
-- (the feature's mean over all rows, one value per feature): x - shift is exact for values
-- near one another, so a feature around 1e6 with a spread of 0.01 keeps its digits whatever
-- order an engine adds in, where sum(weight * x) would round at 1e6's scale.
SELECT
  SUM(CASE WHEN $x IS NOT NULL THEN $weight END) AS n,
  MAX($shift)
    + SUM($weight * ($x - $shift)) / NULLIF(SUM(CASE WHEN $x IS NOT NULL THEN $weight END), 0)
    AS mean
