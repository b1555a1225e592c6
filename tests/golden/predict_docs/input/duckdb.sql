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
        m.doc_id AS doc_id,
        UNNEST(m.tokens) AS token,
        GENERATE_SUBSCRIPTS(m.tokens, 1) AS pos
      FROM (
        SELECT
          x.doc_id AS doc_id,
          CASE
            WHEN TRUE AND REGEXP_FULL_MATCH(x.text, '[\pL\pN ]*')
            THEN STR_SPLIT(x.text, ' ')
            ELSE REGEXP_EXTRACT_ALL(x.text, '[\pL\pN]+(?:''[\pL\pN]+)*')
          END AS tokens
        FROM (
          SELECT
            "id" AS doc_id,
            LOWER("body") AS text
          FROM (
            SELECT
              *
            FROM "emails"
            WHERE
              (
                HASH("id") % 2
              ) = 0
          ) AS s
        ) AS x
      ) AS m
      UNION ALL
      SELECT
        m.doc_id AS doc_id,
        UNNEST(m.tokens) AS token,
        GENERATE_SUBSCRIPTS(m.tokens, 1) AS pos
      FROM (
        SELECT
          x.doc_id AS doc_id,
          CASE
            WHEN TRUE AND REGEXP_FULL_MATCH(x.text, '[\pL\pN ]*')
            THEN STR_SPLIT(x.text, ' ')
            ELSE REGEXP_EXTRACT_ALL(x.text, '[\pL\pN]+(?:''[\pL\pN]+)*')
          END AS tokens
        FROM (
          SELECT
            "id" AS doc_id,
            LOWER("body") AS text
          FROM (
            SELECT
              *
            FROM "emails"
            WHERE
              (
                HASH("id") % 2
              ) = 1
          ) AS s
        ) AS x
      ) AS m
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
