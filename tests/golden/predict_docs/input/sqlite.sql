  SELECT
    g.doc_id AS doc_id,
    g.word AS word,
    CAST(1 AS REAL) AS count
  FROM (
    SELECT
      m.doc_id AS doc_id,
      m.token AS word
    FROM (
      SELECT
        s.doc_id AS doc_id,
        j.value AS token,
        j.key AS pos
      FROM (
        SELECT
          "id" AS doc_id,
          "body" AS text
        FROM "emails" AS x
      ) AS s
      CROSS JOIN JSON_EACH(SQLNB_TOKENS(s.text, '[\pL\pN]+(?:''[\pL\pN]+)*', TRUE)) AS j
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
