-- A word's count in a document as the document transform makes it, before the document's norm
-- (scikit-learn's TfidfTransformer): 1 + ln($count) where $sublinear, times the word's $idf.
-- Written once for both forms: over rows (sql/tfidf/transform.sql) and over DuckDB's lists
-- (sql/macros/transformed.sql).
SELECT CASE WHEN $sublinear THEN 1 + LN($count) ELSE $count END * $idf AS value
