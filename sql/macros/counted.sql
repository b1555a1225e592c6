-- The classes' joint log-likelihoods of a text in sql/macros/scores.sql, its words' positions
-- found: each class's $counted (sql/macros/terms.sql: each occurrence's weight added up).
SELECT LIST_TRANSFORM(RANGE(1, LEN(l.labels) + 1), LAMBDA c: $counted) AS jll
