-- Multi-label training's totals: every labeled document once, under one label of sqlnb's own
-- (0, numbered class -1 by sql/multilabel/everything.sql), so that the kind's own counting
-- statement counts the words of all the documents (per label it counts those of the label's).
SELECT DISTINCT l.doc_id AS doc_id, 0 AS label, CAST(1 AS DOUBLE) AS weight
FROM $labels AS l
