-- Drop a table if it exists: a replaced prediction output, or evaluation's temporary table.
DROP TABLE IF EXISTS $table
