SET join_use_nulls = 1;
SET prefer_column_name_to_alias = 1;
SET create_table_empty_primary_key_by_default = 1;
DROP TABLE IF EXISTS "triaged";
CREATE TABLE "triaged" AS
WITH sqlnb_rows AS (
  SELECT
    "id" AS doc_id,
    CAST("temperature" AS Nullable(Float64)) AS x0
  FROM "patients"
), sqlnb_numeric AS (
  SELECT
    "id" AS doc_id,
    'temperature' AS feature,
    CAST("temperature" AS Nullable(Float64)) AS value
  FROM "patients" AS s
  WHERE
    NOT (
      "temperature" IS NULL
    )
), sqlnb_categories AS (
  SELECT
    "id" AS doc_id,
    'cough' AS feature,
    CAST("cough" AS Nullable(String)) AS value
  FROM "patients" AS s
  WHERE
    NOT (
      "cough" IS NULL
    )
), sqlnb_documents AS (
  SELECT DISTINCT
    "id" AS doc_id
  FROM "patients" AS s
), sqlnb_jll AS (
  SELECT
    j.doc_id AS doc_id,
    j.class_id AS class_id,
    CASE WHEN j.base IS NULL OR j.n_zero > 0 THEN NULL ELSE j.base + j.score END AS jll
  FROM (
    SELECT
      u.doc_id AS doc_id,
      u.class_id AS class_id,
      MAX(u.base) AS base,
      SUM(u.n_zero) AS n_zero,
      SUM(u.score) AS score
    FROM (
      SELECT
        d.doc_id AS doc_id,
        b.class_id AS class_id,
        b.score AS base,
        CAST(b.n_zero AS Nullable(Int64)) AS n_zero,
        CAST(0 AS Nullable(Float64)) AS score,
        1 AS listed
      FROM sqlnb_documents AS d
      CROSS JOIN (
        SELECT
          p.class_id AS class_id,
          p.log_prior AS score,
          CASE WHEN p.log_prior IS NULL THEN 1 ELSE 0 END AS n_zero
        FROM sqlnb_prior AS p
        WHERE
          p.model = 'triage'
      ) AS b
      UNION ALL
      SELECT
        s.doc_id AS doc_id,
        s.class_id AS class_id,
        CAST(NULL AS Nullable(Float64)) AS base,
        CAST(s.n_zero AS Nullable(Int64)) AS n_zero,
        s.score AS score,
        0 AS listed
      FROM (
        SELECT
          doc_id,
          class_id,
          SUM(score) AS score,
          SUM(n_zero) AS n_zero
        FROM (
          SELECT
            x.doc_id AS doc_id,
            p.class_id AS class_id,
            CASE
              WHEN x.x0 IS NULL OR p.v0 IS NULL
              THEN CAST(0 AS Nullable(Float64))
              ELSE CAST(-0.5 AS Nullable(Float64)) * (
                CAST(1.8378770664093453 AS Nullable(Float64)) + LN(p.v0)
              ) - CAST(0.5 AS Nullable(Float64)) * (
                x.x0 - p.m0
              ) * (
                x.x0 - p.m0
              ) / p.v0
            END AS score,
            0 AS n_zero
          FROM sqlnb_rows AS x
          CROSS JOIN (
            SELECT
              g.class_id AS class_id,
              MAX(CASE WHEN g.feature = 'temperature' THEN g.mean END) AS m0,
              MAX(CASE WHEN g.feature = 'temperature' THEN g.var END) AS v0
            FROM "sqlnb_gaussian" AS g
            WHERE
              g.model = 'triage'
            GROUP BY
              g.class_id
          ) AS p
          UNION ALL
          SELECT
            x.doc_id AS doc_id,
            lt.class_id AS class_id,
            SUM(lt.log_theta) AS score,
            SUM(CASE WHEN lt.log_theta IS NULL THEN 1 ELSE 0 END) AS n_zero
          FROM sqlnb_categories AS x
          JOIN sqlnb_category_log_theta AS lt
            ON lt.feature = x.feature AND lt.value = x.value
          WHERE
            lt.model = 'triage'
          GROUP BY
            x.doc_id,
            lt.class_id
        ) AS p
        GROUP BY
          doc_id,
          class_id
      ) AS s
    ) AS u
    GROUP BY
      u.doc_id,
      u.class_id
    HAVING
      MAX(u.listed) = 1
  ) AS j
), sqlnb_posterior AS (
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
      THEN CAST(0 AS Nullable(Float64))
      WHEN b.jll - (
        b.top + LN(b.total)
      ) < -700
      THEN CAST(0 AS Nullable(Float64))
      ELSE EXP(b.jll - (
        b.top + LN(b.total)
      ))
    END AS proba,
    ROW_NUMBER() OVER (
      PARTITION BY b.doc_id
      ORDER BY CASE WHEN b.jll IS NULL THEN 1 ELSE 0 END, b.jll DESC, b.class_id
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
)
SELECT
  p.doc_id AS doc_id,
  c.label AS label,
  p.log_proba AS log_proba,
  p.proba AS proba
FROM sqlnb_posterior AS p
JOIN (
  SELECT
    class_id,
    label
  FROM sqlnb_classes
  WHERE
    model = 'triage'
) AS c
  ON c.class_id = p.class_id;
