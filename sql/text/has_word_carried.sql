-- sql/text/has_word.sql for tokens that carry their document's label (sqlnb_label: a docs
-- table's own, see sqlnb/kinds/text.py): one token row of a labeled document with a positive
-- count (sql/multinomial/count_carried.sql: tokens of unlabeled documents find no class).
SELECT 1 AS found
FROM $tokens AS t
WHERE t.count > 0 AND NOT t.sqlnb_label IS NULL
LIMIT 1
