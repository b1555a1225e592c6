-- The log density of a Bernoulli model's parameters under its Beta(1 + alpha, 1 + beta) priors,
-- up to a constant: alpha times the sum of every log theta, beta times the sum of every
-- log(1 - theta), plus $prior_alpha times the sum of the log priors.
SELECT
  $alpha * COALESCE((SELECT SUM(t.log_theta) FROM sqlnb_log_theta AS t WHERE t.model = $model), 0)
    + $beta * COALESCE((SELECT SUM(a.log_absent) FROM sqlnb_log_absent AS a WHERE a.model = $model), 0)
    + $prior_alpha * COALESCE((SELECT SUM(p.log_prior) FROM sqlnb_prior AS p WHERE p.model = $model), 0)
    AS log_prior
