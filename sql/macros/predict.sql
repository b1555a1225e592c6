-- sqlnb_predict(model, tokens_table): a table (doc_id, label, proba) as predict's output (the
-- label as text), from a tokens table with columns doc_id, word, count named as a string. $body
-- is the prediction of every text model, the model a parameter, checked first.
CREATE OR REPLACE MACRO sqlnb_predict(sqlnb_model, sqlnb_tokens) AS TABLE
SELECT p.doc_id AS doc_id, p.label AS label, p.proba AS proba FROM $body AS p
