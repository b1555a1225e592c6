-- The distinct labels of a labels source as text, in class order.
SELECT CAST(l.label AS VARCHAR) AS label
FROM (SELECT DISTINCT label FROM $labels AS s) AS l
ORDER BY l.label
