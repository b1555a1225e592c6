  SELECT
    g.doc_id AS doc_id,
    g.word AS word,
    CAST(1 AS DOUBLE PRECISION) AS count
  FROM (
    SELECT
      m.doc_id AS doc_id,
      m.token AS word
    FROM (
      SELECT
        s.doc_id AS doc_id,
        m.match[1] AS token,
        m.pos AS pos
      FROM (
        SELECT
          "id" AS doc_id,
          LOWER("body") AS text
        FROM "emails" AS x
      ) AS s
      CROSS JOIN LATERAL REGEXP_MATCHES(
        s.text,
        '[<\pL of Unicode 15.0.0: e821a1d7bea1><\pN of Unicode 15.0.0: 814e8573acd0>]+(?:''[<\pL of Unicode 15.0.0: e821a1d7bea1><\pN of Unicode 15.0.0: 814e8573acd0>]+)*',
        'g'
      ) WITH ORDINALITY AS m(match, pos)
    ) AS m
    WHERE
      m.token <> '' AND TRUE
  ) AS g
