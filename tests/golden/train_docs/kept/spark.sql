  SELECT
    t.doc_id AS doc_id,
    t.token AS token,
    t.pos AS pos
  FROM (
    SELECT
      m.doc_id AS doc_id,
      m.token AS token,
      m.pos AS pos
    FROM (
      SELECT
        `id` AS doc_id,
        POSEXPLODE(
          REGEXP_EXTRACT_ALL(
            LOWER(REPLACE(REPLACE(`body`, 'İ', 'i'), 'Σ', 'σ')),
            '[\\pL\\pN]+(?:\'[\\pL\\pN]+)*',
            0
          )
        ) AS (pos, token)
      FROM `emails` AS s
    ) AS m
  ) AS t
  WHERE
    TRUE AND t.token <> ''
