-- The log-sum-exp step, written once (for sql/predict/posterior.sql, over rows, and the DuckDB
-- macros' sql/macros/posterior.sql, over lists): a class's term of the document's sum,
-- exp(jll - top), and its posterior, exp(jll - (top + ln(total))), where top is the document's
-- largest jll and total the sum of its terms. top + ln(total) is the log-sum-exp, rounded
-- before it is subtracted as scikit-learn rounds it, so that a posterior that is 1 there is 1
-- here (a calibration map's thresholds depend on it). A NULL jll is -infinity (term 0,
-- posterior 0); terms and posteriors below exp(-700) are 0; if every jll of a document is NULL
-- (top NULL) its posterior is undefined (NULL).
SELECT
  CASE WHEN $jll IS NULL OR $jll - $top < -700 THEN 0 ELSE EXP($jll - $top) END AS term,
  CASE
    WHEN $top IS NULL THEN NULL
    WHEN $jll IS NULL THEN CAST(0 AS DOUBLE)
    WHEN $jll - ($top + LN($total)) < -700 THEN CAST(0 AS DOUBLE)
    ELSE EXP($jll - ($top + LN($total)))
  END AS proba
