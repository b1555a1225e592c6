  SELECT
    w.word AS word,
    w.class_id - w.class_id % 8 AS base,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 0 THEN w.count END) AS c0,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 1 THEN w.count END) AS c1,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 2 THEN w.count END) AS c2,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 3 THEN w.count END) AS c3,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 4 THEN w.count END) AS c4,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 5 THEN w.count END) AS c5,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 6 THEN w.count END) AS c6,
    SUM(CASE WHEN (
      w.class_id % 8
    ) = 7 THEN w.count END) AS c7
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
    w.word,
    w.class_id - w.class_id % 8
