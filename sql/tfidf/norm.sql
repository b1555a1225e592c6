-- A document's norm over the values of its known words (sql/tfidf/value.sql), which they are
-- divided by: for $norm 'l1' $sum_abs, the sum of their absolute values, for 'l2' the square root
-- of $sum_squares, the sum of their squares, else 1; a norm of 0 leaves the values as they are.
-- Written once for both forms (sql/tfidf/transform.sql, sql/macros/transformed.sql).
SELECT
  COALESCE(
    NULLIF(
      CASE WHEN $norm = 'l1' THEN $sum_abs WHEN $norm = 'l2' THEN SQRT($sum_squares) ELSE 1 END,
      0
    ),
    1
  ) AS norm
