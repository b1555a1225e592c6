-- The per-class base of a text model's joint log-likelihood, as training derived it
-- (sqlnb_base): what every document scores before its words.
SELECT b.class_id AS class_id, b.score AS score, b.n_zero AS n_zero
FROM sqlnb_base AS b
WHERE b.model = $model
