  SELECT
    w.word AS word,
    SUM(CASE WHEN w.class_id = 0 THEN w.count END) AS c0,
    SUM(CASE WHEN w.class_id = 1 THEN w.count END) AS c1,
    SUM(w.count) AS total
  FROM (
    SELECT
      class_id,
      word,
      count
    FROM sqlnb_word_counts
    WHERE
      model = 'spam'
  ) AS w
  GROUP BY
    w.word
