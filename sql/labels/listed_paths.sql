-- Hierarchical labels in DuckDB's SQL functions: the tree's paths (class_id, leaf, node, parent,
-- depth) of sql/labels/nodes.sql from the labels in class order and the separator of $scored
-- (sql/labels/scored.sql): each class's label split by the separator, every prefix a node (the
-- label's first characters: the lengths of its first parts and of the separators between).
SELECT
  e.class_id AS class_id,
  e.leaf AS leaf,
  LEFT(
    e.leaf,
    CAST(COALESCE(LIST_SUM(LIST_TRANSFORM(LIST_SLICE(e.parts, 1, e.depth), LAMBDA x: LENGTH(x))), 0)
      + (e.depth - 1) * LENGTH(e.sep) AS BIGINT)
  ) AS node,
  LEFT(
    e.leaf,
    CAST(COALESCE(LIST_SUM(LIST_TRANSFORM(LIST_SLICE(e.parts, 1, e.depth - 1), LAMBDA x: LENGTH(x))), 0)
      + GREATEST(e.depth - 2, 0) * LENGTH(e.sep) AS BIGINT)
  ) AS parent,
  e.depth AS depth
FROM (
  SELECT
    c.class_id AS class_id,
    c.leaf AS leaf,
    c.parts AS parts,
    c.sep AS sep,
    UNNEST(RANGE(1, LEN(c.parts) + 1)) AS depth
  FROM (
    SELECT
      UNNEST(RANGE(1, LEN(s.labels) + 1)) AS class_id,
      UNNEST(s.labels) AS leaf,
      UNNEST(LIST_TRANSFORM(s.labels, LAMBDA x: STRING_SPLIT(x, s.sep))) AS parts,
      s.sep AS sep
    FROM $scored AS s
    WHERE NOT s.sep IS NULL
  ) AS c
) AS e
