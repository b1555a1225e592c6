-- The documents (rows) of a wide table: its distinct ids.
SELECT DISTINCT $id AS doc_id FROM $source AS s
