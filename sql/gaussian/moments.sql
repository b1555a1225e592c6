-- Gaussian sufficient statistics of one feature $x in one class, first pass (sqlnb/kinds/
-- gaussian.py repeats it for every feature of the wide rows): n, the summed sample $weight of
-- the rows where $x is not missing, and their weighted mean.
SELECT
  SUM(CASE WHEN $x IS NOT NULL THEN $weight END) AS n,
  SUM($weight * $x) / NULLIF(SUM(CASE WHEN $x IS NOT NULL THEN $weight END), 0) AS mean
