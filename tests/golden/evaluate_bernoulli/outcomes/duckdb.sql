CREATE TEMPORARY TABLE sqlnb_outcomes_xxxxxxxx AS
WITH sqlnb_truth AS (
@truth
), sqlnb_input AS (
@input
), sqlnb_documents AS (
@documents
), sqlnb_jll AS (
@jll
)
SELECT
  s.doc_id AS doc_id,
  s.true_label AS true_label,
  c.label AS predicted,
  COALESCE(s.p_true, CAST(0 AS DOUBLE)) AS p_true,
  COALESCE(s.confidence, CAST(0 AS DOUBLE)) AS confidence,
  COALESCE(s.p_squares, CAST(0 AS DOUBLE)) AS p_squares
FROM (
  SELECT
    t.doc_id AS doc_id,
    t.true_label AS true_label,
    t.class_id AS class_id,
    CASE
      WHEN t.top IS NULL
      THEN NULL
      WHEN t.true_jll IS NULL
      THEN CAST(0 AS DOUBLE)
      WHEN t.true_jll - (
        t.top + LN(t.total)
      ) < -700
      THEN CAST(0 AS DOUBLE)
      ELSE EXP(t.true_jll - (
        t.top + LN(t.total)
      ))
    END AS p_true,
    CASE
      WHEN t.top IS NULL
      THEN NULL
      WHEN t.top IS NULL
      THEN CAST(0 AS DOUBLE)
      WHEN t.top - (
        t.top + LN(t.total)
      ) < -700
      THEN CAST(0 AS DOUBLE)
      ELSE EXP(t.top - (
        t.top + LN(t.total)
      ))
    END AS confidence,
    LIST_SUM(
      LIST_TRANSFORM(
        t.jlls,
        LAMBDA v : CASE
          WHEN CASE
            WHEN t.top IS NULL
            THEN NULL
            WHEN v IS NULL
            THEN CAST(0 AS DOUBLE)
            WHEN v - (
              t.top + LN(t.total)
            ) < -700
            THEN CAST(0 AS DOUBLE)
            ELSE EXP(v - (
              t.top + LN(t.total)
            ))
          END < 1E-150
          THEN 0
          ELSE CASE
            WHEN t.top IS NULL
            THEN NULL
            WHEN v IS NULL
            THEN CAST(0 AS DOUBLE)
            WHEN v - (
              t.top + LN(t.total)
            ) < -700
            THEN CAST(0 AS DOUBLE)
            ELSE EXP(v - (
              t.top + LN(t.total)
            ))
          END * CASE
            WHEN t.top IS NULL
            THEN NULL
            WHEN v IS NULL
            THEN CAST(0 AS DOUBLE)
            WHEN v - (
              t.top + LN(t.total)
            ) < -700
            THEN CAST(0 AS DOUBLE)
            ELSE EXP(v - (
              t.top + LN(t.total)
            ))
          END
        END
      )
    ) AS p_squares
  FROM (
    SELECT
      d.doc_id AS doc_id,
      d.true_label AS true_label,
      d.class_id AS class_id,
      d.top AS top,
      d.true_jll AS true_jll,
      d.jlls AS jlls,
      LIST_SUM(
        LIST_TRANSFORM(
          d.jlls,
          LAMBDA v : CASE WHEN v IS NULL OR v - d.top < -700 THEN 0 ELSE EXP(v - d.top) END
        )
      ) AS total
    FROM (
      SELECT
        j.doc_id AS doc_id,
        MAX(y.true_label) AS true_label,
        MAX(j.jll) AS top,
        ARRAY_AGG(j.jll) AS jlls,
        MAX(CASE WHEN j.class_id = y.class_id THEN j.jll END) AS true_jll,
        ARG_MIN(
          j.class_id,
          (
            CASE WHEN j.jll IS NULL THEN 1 ELSE 0 END,
            -COALESCE(j.jll, CAST(0 AS DOUBLE)),
            j.class_id
          )
        ) AS class_id
      FROM sqlnb_jll AS j
      JOIN (
        SELECT
          y.doc_id AS doc_id,
          CAST(y.label AS TEXT) AS true_label,
          k.class_id AS class_id
        FROM sqlnb_truth AS y
        LEFT JOIN (
          SELECT
            class_id,
            label
          FROM sqlnb_classes
          WHERE
            model = 'spam'
        ) AS k
          ON k.label = CAST(y.label AS TEXT)
      ) AS y
        ON y.doc_id = j.doc_id
      GROUP BY
        j.doc_id
    ) AS d
  ) AS t
) AS s
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'spam'
) AS c
  ON c.class_id = s.class_id;
