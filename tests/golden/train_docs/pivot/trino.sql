  SELECT
    w.word AS word,
    SUM(CASE WHEN w.class_id = 0 THEN w.count END) AS c0,
    SUM(CASE WHEN w.class_id = 1 THEN w.count END) AS c1,
    SUM(w.count) AS total
  FROM (
    SELECT
      w.class_id AS class_id,
      w.word AS word,
      CASE WHEN FALSE THEN w.count * f.idf ELSE w.count END AS count
    FROM sqlnb_word_counts AS w
    JOIN sqlnb_transform AS f
      ON f.model = w.model AND f.word = w.word
    WHERE
      w.model = 'spam'
  ) AS w
  GROUP BY
    w.word
