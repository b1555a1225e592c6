-- The joint log-likelihood of one (document, class), written once for every form of its sum
-- (sql/predict/jll.sql over rows; sql/macros/jll.sql, a UNION ALL, for the SQL functions;
-- sql/macros/scores.sql over lists, DuckDB's macros): the class's $base plus the $score of the
-- document's parts, where $n_zero counts factors of probability 0. A NULL base (a class whose
-- prior is 0) or a factor of probability 0 makes it NULL, meaning -infinity.
SELECT CASE WHEN $base IS NULL OR $n_zero > 0 THEN NULL ELSE $base + $score END AS jll
