INSERT OVERWRITE TABLE sqlnb_transform PARTITION(model = 'spam') (
  word,
  idf,
  sublinear,
  norm
)
SELECT
  o.word,
  o.idf,
  o.sublinear,
  o.norm
FROM (
  SELECT
    'spam' AS model,
    f.word AS word,
    f.idf AS idf,
    f.sublinear AS sublinear,
    f.norm AS norm
  FROM (
    SELECT
      'spam' AS model,
      d.word AS word,
      CASE
        WHEN 'smooth' = 'smooth'
        THEN LN((
          1 + n.n_docs
        ) / (
          1 + d.df
        )) + 1
        WHEN 'smooth' = 'plain'
        THEN LN(n.n_docs / d.df) + 1
        ELSE CAST(1 AS DOUBLE)
      END AS idf,
      TRUE AS sublinear,
      CAST('l2' AS STRING) AS norm
    FROM sqlnb_doc_freq AS d
    CROSS JOIN (
      SELECT
        COALESCE(
          (
            SELECT
              MAX(k.n)
            FROM sqlnb_doc_count AS k
            WHERE
              k.model = 'spam'
          ),
          (
            SELECT
              SUM(c.n_docs)
            FROM sqlnb_classes AS c
            WHERE
              c.model = 'spam'
          )
        ) AS n_docs
    ) AS n
    WHERE
      d.model = 'spam'
  ) AS f
  WHERE
    f.model = 'spam'
) AS o;
