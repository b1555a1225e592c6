-- Hierarchical labels in the rows form of any model (Spark's SQL functions: sqlnb/functions/
-- rows.py): the tree's paths (model, class_id, leaf, node, parent, depth) of sql/labels/nodes.sql
-- for every model, read from the catalog (predict writes them as literals: sqlnb.labels.paths):
-- each class's label split by the model's separator (literally: Spark's SPLIT takes it quoted),
-- every prefix of its parts a node, the one a part shorter its parent ('' for a top node). A
-- flat model (no separator) is a tree of one level, its classes the top nodes.
SELECT
  e.model AS model,
  e.class_id AS class_id,
  e.leaf AS leaf,
  ARRAY_TO_STRING(ARRAY_SLICE(e.parts, 1, d.depth), e.sep) AS node,
  ARRAY_TO_STRING(ARRAY_SLICE(e.parts, 1, d.depth - 1), e.sep) AS parent,
  d.depth AS depth
FROM (
  SELECT
    c.model AS model,
    c.class_id AS class_id,
    c.label AS leaf,
    CASE WHEN m.sep IS NULL THEN [c.label] ELSE STRING_SPLIT(c.label, m.sep) END AS parts,
    COALESCE(m.sep, '') AS sep
  FROM sqlnb_classes AS c
  JOIN (
    SELECT g.model AS model, JSON_EXTRACT_STRING(g.params, '$.hierarchy') AS sep
    FROM sqlnb_models AS g
  ) AS m
    ON m.model = c.model
) AS e
CROSS JOIN UNNEST(GENERATE_SERIES(1, ARRAY_LENGTH(e.parts))) AS d(depth)
