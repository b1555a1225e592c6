-- Tokenizing, step 1, in ClickHouse SQL (no UNNEST with positions): every match of the token
-- pattern (RE2, as DuckDB's) with its position, by ARRAY JOIN; {name: Kind} are the
-- placeholders, as $name elsewhere. A token is Nullable, so that LEAD past the last one is NULL.
SELECT x.doc_id AS doc_id, toNullable(token) AS token, pos
FROM (
  SELECT {id: Identifier} AS doc_id, extractAll({text: String}, {pattern: String}) AS tokens
  FROM {source: Identifier} AS s
) AS x
ARRAY JOIN x.tokens AS token, arrayEnumerate(x.tokens) AS pos
