-- Hierarchical labels: every node of a model's tree with each of its ancestors, itself included
-- (node, ancestor), from $paths (class_id, leaf, node, parent, depth: sql/labels/nodes.sql).
SELECT DISTINCT
  a.node AS node,
  b.node AS ancestor
FROM $paths AS a
JOIN $paths AS b
  ON b.class_id = a.class_id AND b.depth <= a.depth
