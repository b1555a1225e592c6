-- sqlnb_classify(model, text): the label (as text; a list of labels in a database with a
-- multi-label model: sql/multilabel/listed.sql) of raw text, tokenized with the model's own
-- settings. $body is one prediction pipeline for every text model, the model a parameter; its
-- source a one-row table of the macro's argument. DuckDB decorrelates the subquery into joins,
-- so a query over many rows runs set-based.
CREATE OR REPLACE MACRO sqlnb_classify(sqlnb_model, sqlnb_text) AS ($body)
