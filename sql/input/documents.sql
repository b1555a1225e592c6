-- The documents to classify: every distinct doc_id of a source (tokens or labels).
SELECT DISTINCT doc_id FROM $source AS s
