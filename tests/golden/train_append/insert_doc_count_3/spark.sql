INSERT INTO sqlnb_doc_count (
  model,
  n
)
SELECT
  'spam\037merged' AS model,
  b.n + COALESCE(
    (
      SELECT
        SUM(d.n)
      FROM sqlnb_doc_count AS d
      WHERE
        d.model = 'spam'
    ),
    (
      SELECT
        SUM(c.n_docs)
      FROM sqlnb_classes AS c
      WHERE
        c.model = 'spam'
    )
  ) AS n
FROM sqlnb_doc_count AS b
WHERE
  b.model = 'spam\037batch';
