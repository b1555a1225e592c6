-- sqlnb_classify(model, text): the label of raw text, tokenized with the model's own settings.
-- $body is a CASE over the database's text models of each one's prediction pipeline, its source
-- a one-row table of the macro's argument; DuckDB decorrelates the subqueries into joins, so a
-- query over many rows runs set-based.
CREATE OR REPLACE MACRO sqlnb_classify(sqlnb_model, sqlnb_text) AS ($body)
