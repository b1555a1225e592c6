-- Hierarchical labels: evaluate's accuracy at each depth d. Over the documents whose true label
-- ($truth: doc_id, label) has a node at depth d ($paths), the share whose walked label ($walked:
-- sql/labels/walk.sql) has that node among its ancestors ($ancestors): a walk that stopped above
-- depth d, or went elsewhere, is wrong there.
SELECT
  t.depth AS depth,
  COUNT(*) AS n_docs,
  AVG(CASE WHEN h.ancestor IS NULL THEN CAST(0 AS DOUBLE) ELSE CAST(1 AS DOUBLE) END) AS accuracy
FROM (
  SELECT
    r.doc_id AS doc_id,
    m.node AS node,
    m.depth AS depth
  FROM $truth AS r
  JOIN $paths AS m
    ON m.leaf = CAST(r.label AS VARCHAR)
) AS t
LEFT JOIN (
  SELECT
    w.doc_id AS doc_id,
    a.ancestor AS ancestor
  FROM $walked AS w
  JOIN $ancestors AS a
    ON a.node = w.label
) AS h
  ON h.doc_id = t.doc_id AND h.ancestor = t.node
GROUP BY t.depth
ORDER BY t.depth
