-- Gaussian sufficient statistics of one feature $x in one class, second pass: m2, the weighted
-- sum of squared deviations from the class $mean of the first pass (two passes keep the digits
-- that sum(x^2) - n mean^2 would lose).
SELECT SUM($weight * ($x - $mean) * ($x - $mean)) AS m2
