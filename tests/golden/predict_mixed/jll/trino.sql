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
        CAST(b.n_zero AS BIGINT) AS n_zero,
        CAST(0 AS DOUBLE) AS score,
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
        CAST(NULL AS DOUBLE) AS base,
        CAST(s.n_zero AS BIGINT) AS n_zero,
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
              THEN CAST(0 AS DOUBLE)
              ELSE CAST(-0.5 AS DOUBLE) * (
                CAST(1.8378770664093453 AS DOUBLE) + LN(p.v0)
              ) - CAST(CAST(0.5 AS DOUBLE) * (
                x.x0 - p.m0
              ) * (
                x.x0 - p.m0
              ) AS DOUBLE) / p.v0
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
