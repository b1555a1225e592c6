  SELECT
    d.doc_id AS doc_id,
    d.class_id AS class_id,
    CASE
      WHEN d.top IS NULL
      THEN NULL
      WHEN d.top IS NULL
      THEN CAST(0 AS DOUBLE)
      WHEN d.top - (
        d.top + LN(
          LIST_SUM(
            LIST_TRANSFORM(
              d.jlls,
              LAMBDA v : CASE WHEN v IS NULL OR v - d.top < -700 THEN 0 ELSE EXP(v - d.top) END
            )
          )
        )
      ) < -700
      THEN CAST(0 AS DOUBLE)
      ELSE EXP(
        d.top - (
          d.top + LN(
            LIST_SUM(
              LIST_TRANSFORM(
                d.jlls,
                LAMBDA v : CASE WHEN v IS NULL OR v - d.top < -700 THEN 0 ELSE EXP(v - d.top) END
              )
            )
          )
        )
      )
    END AS proba,
    1 AS rn
  FROM (
    SELECT
      j.doc_id AS doc_id,
      MAX(j.jll) AS top,
      ARRAY_AGG(j.jll) AS jlls,
      ARG_MIN(
        j.class_id,
        (
          CASE WHEN j.jll IS NULL THEN 1 ELSE 0 END,
          -COALESCE(j.jll, CAST(0 AS DOUBLE)),
          j.class_id
        )
      ) AS class_id
    FROM sqlnb_jll AS j
    GROUP BY
      j.doc_id
  ) AS d
