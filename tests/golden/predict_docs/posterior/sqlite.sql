  SELECT
    b.doc_id AS doc_id,
    b.class_id AS class_id,
    b.jll AS jll,
    b.jll - (
      b.top + LN(CASE WHEN b.total > 0 THEN b.total END)
    ) AS log_proba,
    CASE
      WHEN b.top IS NULL
      THEN NULL
      WHEN b.jll IS NULL
      THEN CAST(0 AS REAL)
      WHEN b.jll - (
        b.top + LN(b.total)
      ) < -700
      THEN CAST(0 AS REAL)
      ELSE EXP(b.jll - (
        b.top + LN(b.total)
      ))
    END AS proba,
    ROW_NUMBER() OVER (
      PARTITION BY b.doc_id
      ORDER BY CASE WHEN b.jll IS NULL THEN 1 ELSE 0 END NULLS LAST, b.jll DESC, b.class_id NULLS LAST
    ) AS rn
  FROM (
    SELECT
      a.doc_id AS doc_id,
      a.class_id AS class_id,
      a.jll AS jll,
      a.top AS top,
      SUM(
        CASE WHEN a.jll IS NULL OR a.jll - a.top < -700 THEN 0 ELSE EXP(a.jll - a.top) END
      ) OVER (PARTITION BY a.doc_id) AS total
    FROM (
      SELECT
        j.doc_id AS doc_id,
        j.class_id AS class_id,
        j.jll AS jll,
        MAX(j.jll) OVER (PARTITION BY j.doc_id) AS top
      FROM sqlnb_jll AS j
    ) AS a
  ) AS b
