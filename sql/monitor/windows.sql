-- The window of each document of $source: the start of the $unit ('day', 'week' from Monday,
-- 'month') of its time $time (NULL without a time column: one window), and n, the window's
-- number in time order (what the other monitor queries group by: a NULL window too).
SELECT
  d.doc_id AS doc_id,
  d.window_start AS window_start,
  DENSE_RANK() OVER (ORDER BY d.window_start) AS n
FROM (
  SELECT DISTINCT
    $id AS doc_id,
    DATE_TRUNC($unit, $time) AS window_start
  FROM $source AS s
) AS d
