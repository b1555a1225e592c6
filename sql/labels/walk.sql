-- Hierarchical labels: predict's output (doc_id, label, proba, depth), the walk down from the
-- root over the $nodes' probabilities (sql/labels/nodes.sql). A node is on the walk's path when
-- it and each of its ancestors ($ancestors) is its parent's most probable child (rn = 1); the
-- walk stops before the first node below the confidence (of the one row of $confidence), so it
-- takes the deepest path node whose ancestors (itself included) are all at or above it: label
-- its path, proba its probability, depth its number of parts. If even the best top node is
-- below the confidence: label NULL, depth 0 and that node's probability. (The confidence is a
-- row, not a scalar subquery: Spark's SQL functions read it from the model's catalog row.)
SELECT
  w.doc_id AS doc_id,
  CASE WHEN w.least >= w.confidence THEN w.node END AS label,
  w.proba AS proba,
  CASE WHEN w.least >= w.confidence THEN w.depth ELSE 0 END AS depth
FROM (
  SELECT
    t.doc_id AS doc_id,
    t.node AS node,
    t.depth AS depth,
    t.proba AS proba,
    t.least AS least,
    t.confidence AS confidence,
    ROW_NUMBER() OVER (
      PARTITION BY t.doc_id
      ORDER BY CASE WHEN t.least >= t.confidence THEN t.depth ELSE -t.depth END DESC
    ) AS rn
  FROM (
    SELECT
      r.doc_id AS doc_id,
      r.node AS node,
      r.depth AS depth,
      r.proba AS proba,
      MIN(q.proba) AS least,
      MAX(k.confidence) AS confidence
    FROM $nodes AS r
    JOIN $ancestors AS a
      ON a.node = r.node
    JOIN $nodes AS q
      ON q.doc_id = r.doc_id AND q.node = a.ancestor
    CROSS JOIN $confidence AS k
    GROUP BY r.doc_id, r.node, r.depth, r.proba
    HAVING MAX(q.rn) = 1
  ) AS t
) AS w
WHERE w.rn = 1
