-- Per window n of $windows: its start and its documents.
SELECT
  w.n AS n,
  MIN(w.window_start) AS window_start,
  COUNT(*) AS documents
FROM $windows AS w
GROUP BY w.n
