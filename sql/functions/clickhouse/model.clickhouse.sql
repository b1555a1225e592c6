-- A text model's row of sqlnb_ch_models: per class in class order its label, its base (a NULL
-- base, a prior of 0, is a zero factor) and zero count (sqlnb_base), whether a word counts once,
-- whether a word has a zero count in a class (its rows of sqlnb_ch_weights, written first;
-- without, the functions add up no zero counts), its
-- tokenizer's settings ('' for none), its document transform (sqlnb_transform's settings), its
-- calibration's scale (1 if none) and per class its map's rows, as lists in the order of lo
-- ({steps}: sql/calibrate/steps.sql; empty for a class without), and its labels' separator ('' for
-- flat labels) and confidence (sqlnb.labels).
INSERT INTO sqlnb_ch_models
SELECT
  {model: String} AS model,
  c.labels, b.base, b.base_zero, b.presence, z.zeros, t.settings, f.transformed, f.sublinear,
  f.norm, k.scale, k.calibrated, k.cal_method, k.cal_lo, k.cal_a, k.cal_b, h.hierarchy, h.confidence
FROM (
  SELECT arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((class_id, toString(label))))) AS labels
  FROM sqlnb_classes WHERE model = {model: String}
) AS c
CROSS JOIN (
  SELECT
    arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((class_id, toFloat64(ifNull(score, 0)))))) AS base,
    arrayMap(
      x -> x.2,
      arraySort(x -> x.1, groupArray((class_id, toFloat64(n_zero + if(score IS NULL, 1, 0)))))
    ) AS base_zero,
    toUInt8(max(presence)) AS presence
  FROM sqlnb_base WHERE model = {model: String}
) AS b
CROSS JOIN (
  SELECT toUInt8(countIf(v.z != 0) > 0) AS zeros FROM sqlnb_ch_weights AS v
  WHERE v.model = {model: String}
) AS z
CROSS JOIN (
  SELECT toString(ifNull(any(settings), '')) AS settings FROM sqlnb_tokenizers WHERE model = {model: String}
) AS t
CROSS JOIN (
  SELECT
    toUInt8(count() > 0) AS transformed,
    toUInt8(ifNull(any(sublinear), 0)) AS sublinear,
    toString(ifNull(any(norm), '')) AS norm
  FROM sqlnb_transform WHERE model = {model: String}
) AS f
CROSS JOIN (
  SELECT
    toFloat64(ifNull(max(q.t), 1)) AS scale,
    toUInt8(sum(q.n) > 0) AS calibrated,
    arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((q.class_id, q.method)))) AS cal_method,
    arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((q.class_id, q.lo)))) AS cal_lo,
    arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((q.class_id, q.a)))) AS cal_a,
    arrayMap(x -> x.2, arraySort(x -> x.1, groupArray((q.class_id, q.b)))) AS cal_b
  FROM (
    SELECT
      c.class_id AS class_id,
      max(k.scale) AS t,
      countIf(k.mapped) AS n,
      toString(ifNull(anyIf(k.method, k.mapped), '')) AS method,
      arrayMap(y -> toFloat64(y.1), arraySort(y -> y.1, groupArrayIf((k.lo, k.a, k.b), k.mapped))) AS lo,
      arrayMap(y -> toFloat64(y.2), arraySort(y -> y.1, groupArrayIf((k.lo, k.a, k.b), k.mapped))) AS a,
      arrayMap(y -> toFloat64(y.3), arraySort(y -> y.1, groupArrayIf((k.lo, k.a, k.b), k.mapped))) AS b
    FROM sqlnb_classes AS c
    LEFT JOIN (SELECT * FROM {steps: Identifier} AS s) AS k
      ON k.model = c.model AND k.class_id = c.class_id
    WHERE c.model = {model: String}
    GROUP BY c.class_id
  ) AS q
) AS k
CROSS JOIN (
  SELECT
    JSONExtractString(any(params), 'hierarchy') AS hierarchy,
    toFloat64(ifNull(JSONExtractFloat(any(params), 'confidence'), 0)) AS confidence
  FROM sqlnb_models WHERE model = {model: String}
) AS h
