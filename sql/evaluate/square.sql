-- A posterior probability $p squared, for the Brier score's sum of squares: 0 below 1e-150 (an
-- underflow, which PostgreSQL reports as an error), as sql/evaluate/outcomes.sql sums them.
SELECT CASE WHEN $p < 1E-150 THEN 0 ELSE $p * $p END AS square
