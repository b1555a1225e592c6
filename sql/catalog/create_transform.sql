-- Derived (multinomial and complement models with a document transform): per vocabulary word,
-- what a document's count of it becomes before it is scored (sql/tfidf/transform.sql): idf, its
-- inverse document frequency (1 without --idf); sublinear, whether the count is first
-- 1 + ln(count); norm, the document norm ('l1', 'l2' or NULL), the same on every row.
CREATE TABLE IF NOT EXISTS sqlnb_transform (
  model VARCHAR,
  word VARCHAR,
  idf DOUBLE,
  sublinear BOOLEAN,
  norm VARCHAR
)
