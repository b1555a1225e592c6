  SELECT
    g.doc_id AS doc_id,
    g.word AS word,
    CAST(1 AS DOUBLE) AS count
  FROM (
    SELECT
      m.doc_id AS doc_id,
      m.token AS word
    FROM (
      SELECT
        x.doc_id AS doc_id,
        t.token AS token,
        t.pos AS pos
      FROM (
        SELECT
          "id" AS doc_id,
          REGEXP_EXTRACT_ALL(LOWER("body"), '[\p{L}\p{N}]+(?:''[\p{L}\p{N}]+)*') AS tokens
        FROM "emails" AS s
      ) AS x
      CROSS JOIN UNNEST(x.tokens) WITH ORDINALITY AS t(token, pos)
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
