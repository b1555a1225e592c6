-- Whether table $table keeps a row under the key $kept (a write interrupted before it recorded
-- its version left the rows it replaced there: sqlnb.keyrows): one row, $table_name, if so.
-- A write whose overwrites keep the version they replace asks it once of each of their tables,
-- so that the overwrite of a table that keeps none there needs no guard of its own (on Spark a
-- job each).
SELECT h.held AS held
FROM (
  SELECT $table_name AS held FROM $table AS t WHERE t.model = $kept LIMIT 1
) AS h
