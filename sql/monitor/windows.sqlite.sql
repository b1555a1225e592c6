-- SQLite (no DATE_TRUNC; placeholders are :name in its syntax): the window of each document of
-- :source, the start of the :unit
-- ('day', 'week' from Monday, 'month') of its time :time as text 'YYYY-MM-DD HH:MM:SS', and
-- n, the window's number in time order (see windows.sql).
SELECT
  d.doc_id AS doc_id,
  d.window_start AS window_start,
  DENSE_RANK() OVER (ORDER BY d.window_start) AS n
FROM (
  SELECT DISTINCT
    :id AS doc_id,
    CASE :unit
      WHEN 'month' THEN datetime(:time, 'start of month')
      WHEN 'week' THEN datetime(:time, 'start of day', '-6 days', 'weekday 1')
      ELSE datetime(:time, 'start of day')
    END AS window_start
  FROM :source AS s
) AS d
