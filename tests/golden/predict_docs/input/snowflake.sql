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
        CAST(f.value AS VARCHAR) AS token,
        f.index AS pos
      FROM (
        SELECT
          "id" AS doc_id,
          REGEXP_SUBSTR_ALL(LOWER("body"), '[[:alpha:][:digit:]]+(\'[[:alpha:][:digit:]]+)*') AS tokens
        FROM "emails" AS s
      ) AS x, LATERAL FLATTEN(INPUT => x.tokens) AS f(SEQ, KEY, PATH, INDEX, VALUE, THIS)
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
