CREATE VIEW IF NOT EXISTS sqlnb_log_absent AS
SELECT
  s.model AS model,
  c.class_id AS class_id,
  s.word AS word,
  CASE c.class_id % 8
    WHEN 0
    THEN s.w0
    WHEN 1
    THEN s.w1
    WHEN 2
    THEN s.w2
    WHEN 3
    THEN s.w3
    WHEN 4
    THEN s.w4
    WHEN 5
    THEN s.w5
    WHEN 6
    THEN s.w6
    WHEN 7
    THEN s.w7
  END AS log_absent
FROM sqlnb_scoring AS s
JOIN sqlnb_classes AS c
  ON c.model = s.model AND -1 - (
    c.class_id - c.class_id % 8
  ) = s.base;
