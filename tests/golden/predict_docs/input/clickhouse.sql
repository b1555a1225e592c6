  SELECT
    g.doc_id AS doc_id,
    g.word AS word,
    CAST(1 AS Nullable(Float64)) AS count
  FROM (
    SELECT
      m.doc_id AS doc_id,
      m.token AS word
    FROM (
      SELECT
        x.doc_id AS doc_id,
        toNullable(token) AS token,
        pos
      FROM (
        SELECT
          "id" AS doc_id,
          extractAll(
            lowerUTF8(REPLACE(REPLACE("body", 'İ', 'i'), 'Σ', 'σ')),
            '[\\pL\\pN]+(?:''[\\pL\\pN]+)*'
          ) AS tokens
        FROM "emails" AS s
      ) AS x
      ARRAY JOIN x.tokens AS token,
        arrayEnumerate(x.tokens) AS pos
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
