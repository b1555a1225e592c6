INSERT OVERWRITE TABLE `sqlnb_gaussian_stats` PARTITION(model = 'spam') (
  class_id,
  feature,
  n,
  mean,
  m2
)
SELECT
  o.class_id,
  o.feature,
  o.n,
  o.mean,
  o.m2
FROM (
  SELECT
    'spam' AS model,
    class_id,
    feature,
    n,
    mean,
    m2
  FROM (
    SELECT
      class_id,
      feature,
      n,
      mean,
      m2
    FROM (
      SELECT
        s.class_id AS class_id,
        f.feature AS feature,
        CASE f.i WHEN 0 THEN s.n0 END AS n,
        CASE f.i WHEN 0 THEN s.mean0 END AS mean,
        CASE f.i WHEN 0 THEN s.m20 END AS m2
      FROM (
        SELECT
          m.class_id AS class_id,
          MAX(m.n0) AS n0,
          MAX(m.mean0) AS mean0,
          SUM(l.weight * (
            x.x0 - m.mean0
          ) * (
            x.x0 - m.mean0
          )) AS m20
        FROM (
          SELECT
            `id` AS doc_id,
            CAST(`temperature` AS DOUBLE) AS x0
          FROM `patients`
        ) AS x
        JOIN (
          SELECT
            l.doc_id AS doc_id,
            l.label AS label,
            l.weight AS weight,
            c.class_id AS class_id
          FROM (
            SELECT DISTINCT
              `id` AS doc_id,
              `label` AS label,
              CAST(1 AS DOUBLE) AS weight
            FROM `patients` AS s
          ) AS l
          JOIN (
            SELECT
              v.label AS label,
              DENSE_RANK() OVER (ORDER BY v.label NULLS LAST) - 1 AS class_id
            FROM (
              SELECT DISTINCT
                x.label AS label
              FROM (
                SELECT DISTINCT
                  `id` AS doc_id,
                  `label` AS label,
                  CAST(1 AS DOUBLE) AS weight
                FROM `patients` AS s
              ) AS x
            ) AS v
          ) AS c
            ON c.label = l.label
        ) AS l
          ON l.doc_id = x.doc_id
        JOIN (
          SELECT
            l.class_id AS class_id,
            SUM(CASE WHEN NOT x.x0 IS NULL THEN l.weight END) AS n0,
            MAX(c.c0) + SUM(l.weight * (
              x.x0 - c.c0
            )) / NULLIF(SUM(CASE WHEN NOT x.x0 IS NULL THEN l.weight END), 0) AS mean0
          FROM (
            SELECT
              `id` AS doc_id,
              CAST(`temperature` AS DOUBLE) AS x0
            FROM `patients`
          ) AS x
          JOIN (
            SELECT
              l.doc_id AS doc_id,
              l.label AS label,
              l.weight AS weight,
              c.class_id AS class_id
            FROM (
              SELECT DISTINCT
                `id` AS doc_id,
                `label` AS label,
                CAST(1 AS DOUBLE) AS weight
              FROM `patients` AS s
            ) AS l
            JOIN (
              SELECT
                v.label AS label,
                DENSE_RANK() OVER (ORDER BY v.label NULLS LAST) - 1 AS class_id
              FROM (
                SELECT DISTINCT
                  x.label AS label
                FROM (
                  SELECT DISTINCT
                    `id` AS doc_id,
                    `label` AS label,
                    CAST(1 AS DOUBLE) AS weight
                  FROM `patients` AS s
                ) AS x
              ) AS v
            ) AS c
              ON c.label = l.label
          ) AS l
            ON l.doc_id = x.doc_id
          CROSS JOIN (
            SELECT
              AVG(x.x0) AS c0
            FROM (
              SELECT
                `id` AS doc_id,
                CAST(`temperature` AS DOUBLE) AS x0
              FROM `patients`
            ) AS x
          ) AS c
          GROUP BY
            l.class_id
        ) AS m
          ON m.class_id = l.class_id
        GROUP BY
          m.class_id
      ) AS s
      CROSS JOIN (
        SELECT
          0 AS i,
          'temperature' AS feature
      ) AS f
    ) AS u
    WHERE
      NOT n IS NULL
  ) AS s
) AS o;
