-- The vocabulary size of a text model: its distinct training words, one row each in the first
-- block of sqlnb_scoring (derived from the counts before the catalog row is written).
SELECT COUNT(*) AS n_features FROM sqlnb_scoring AS s WHERE s.model = $model AND s.base = 0
