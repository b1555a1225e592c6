-- Stored counts (multinomial and complement models with a document transform, one row each:
-- the SQL functions know such a model by it): the number of training documents, each counted
-- once whatever its weight, the n of the inverse document frequency (as scikit-learn's
-- TfidfTransformer, which takes no sample weights).
CREATE TABLE IF NOT EXISTS sqlnb_doc_count (
  model VARCHAR,
  n DOUBLE
)
