-- Numeric feature values that are NaN or infinite (they fail "value * 0 = 0"), to name one.
SELECT v.feature AS feature, CAST(v.doc_id AS VARCHAR) AS doc_id
FROM $values AS v
WHERE NOT (v.value * 0 = 0)
ORDER BY 1, 2
LIMIT 1
