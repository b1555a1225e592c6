  SELECT
    t.doc_id AS doc_id,
    t.class_id AS class_id,
    CASE
      WHEN t.top IS NULL
      THEN NULL
      WHEN t.top IS NULL
      THEN CAST(0 AS Nullable(Float64))
      WHEN t.top - (
        t.top + LN(t.total)
      ) < -700
      THEN CAST(0 AS Nullable(Float64))
      ELSE EXP(t.top - (
        t.top + LN(t.total)
      ))
    END AS proba,
    1 AS rn
  FROM (
    SELECT
      d.doc_id AS doc_id,
      d.class_id AS class_id,
      d.top AS top,
      arraySum(
        v -> COALESCE(v, 0),
        arrayMap(
          v -> CASE WHEN v IS NULL OR v - d.top < -700 THEN 0 ELSE EXP(v - d.top) END,
          d.jlls
        )
      ) AS total
    FROM (
      SELECT
        j.doc_id AS doc_id,
        MAX(j.jll) AS top,
        ARRAY_AGG(j.jll) AS jlls,
        argMin(
          j.class_id,
          (
            CASE WHEN j.jll IS NULL THEN 1 ELSE 0 END,
            -COALESCE(j.jll, CAST(0 AS Nullable(Float64))),
            j.class_id
          )
        ) AS class_id
      FROM sqlnb_jll AS j
      GROUP BY
        j.doc_id
    ) AS d
  ) AS t
