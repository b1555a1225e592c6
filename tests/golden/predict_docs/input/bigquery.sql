  SELECT
    g.doc_id AS doc_id,
    g.word AS word,
    CAST(1 AS FLOAT64) AS count
  FROM (
    SELECT
      m.doc_id AS doc_id,
      m.token AS word
    FROM (
      SELECT
        x.doc_id AS doc_id,
        token,
        pos
      FROM (
        SELECT
          `id` AS doc_id,
          REGEXP_EXTRACT_ALL(LOWER(`body`), '[\\pL\\pN]+(?:\'[\\pL\\pN]+)*') AS tokens
        FROM `emails` AS s
      ) AS x
      CROSS JOIN UNNEST(x.tokens) AS token WITH OFFSET AS pos
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
