-- The argmax and its tie rule, written once for the row form: rank 1 is the class with the
-- largest $value of its document ($doc), ties to the first class in sorted order ($class), a NULL
-- value (-infinity, or no value) after every other. The list form (DuckDB's macros) is
-- sql/macros/argmax.sql.
SELECT
  ROW_NUMBER() OVER (
    PARTITION BY $doc
    ORDER BY CASE WHEN $value IS NULL THEN 1 ELSE 0 END, $value DESC, $class
  ) AS rn
