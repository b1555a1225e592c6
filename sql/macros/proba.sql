-- sqlnb_proba(model, text): the posterior probability of sqlnb_classify's label. $body as in
-- sql/macros/classify.sql.
CREATE OR REPLACE MACRO sqlnb_proba(sqlnb_model, sqlnb_text) AS ($body)
