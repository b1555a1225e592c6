-- The log density of a multinomial model's parameters under its Dirichlet priors, up to a
-- constant: alpha times the sum of every log theta (Lidstone alpha is the MAP estimate under
-- Dirichlet(1 + alpha)) plus $prior_alpha times the sum of the log priors. Probability-0
-- parameters (alpha = 0) add nothing.
SELECT
  $alpha * COALESCE((SELECT SUM(t.log_theta) FROM sqlnb_log_theta AS t WHERE t.model = $model), 0)
    + $prior_alpha * COALESCE((SELECT SUM(p.log_prior) FROM sqlnb_prior AS p WHERE p.model = $model), 0)
    AS log_prior
