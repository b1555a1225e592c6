-- The hash bucket (1 to $buckets) of a word in a text model's lookup row (sql/macros/lookup.sql):
-- the same expression where the row is built and where the macros look a word up.
SELECT CAST(HASH($word) % $buckets AS BIGINT) + 1 AS bucket
