-- Hierarchical labels (train --hierarchy SEP), the label mode's first step after the posterior
-- (written once, for every path that reads it): a node's probability is the sum of the posteriors
-- of the classes (leaves) under it. $paths is (class_id, leaf, node, parent, depth): each class
-- with every node of its path, itself included ('' is the root, the parent of a top node).
-- rn = 1 marks the most probable child of its parent, ties to the node whose first class comes
-- first in sorted order (the first path), a NULL probability (undefined posterior) after all.
SELECT
  n.doc_id AS doc_id,
  n.node AS node,
  n.depth AS depth,
  n.proba AS proba,
  ROW_NUMBER() OVER (
    PARTITION BY n.doc_id, n.depth, n.parent
    ORDER BY CASE WHEN n.proba IS NULL THEN 1 ELSE 0 END, n.proba DESC, n.first
  ) AS rn
FROM (
  SELECT
    p.doc_id AS doc_id,
    m.node AS node,
    m.parent AS parent,
    m.depth AS depth,
    SUM(p.proba) AS proba,
    MIN(p.class_id) AS first
  FROM $posterior AS p
  JOIN $paths AS m
    ON m.class_id = p.class_id
  GROUP BY p.doc_id, m.node, m.parent, m.depth
) AS n
