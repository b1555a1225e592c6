-- sqlnb_predict(model, tokens_table): a table (doc_id, label, proba) as predict's output, from a
-- tokens table with columns doc_id, word, count named as a string. $body is the UNION ALL over
-- the database's text models of each one's prediction, kept where the model name matches.
CREATE OR REPLACE MACRO sqlnb_predict(sqlnb_model, sqlnb_tokens) AS TABLE
SELECT p.doc_id AS doc_id, p.label AS label, p.proba AS proba FROM $body AS p
