-- A text model's row of sqlnb_ch_models: {row}, the list form's lookup row of model {model}
-- without its word lists (sql/macros/lookup.sql, the tree DuckDB's lookup rows are; the words
-- are sqlnb_ch_words' and sqlnb_ch_weights'), in the types of ClickHouse's dictionary, whose
-- arrays hold no NULL: a class's NULL base (a prior of 0) is a base of 0 with one more zero
-- factor, a class without a calibration map has method '' and empty lists; a missing tokenizer
-- is '' and a missing transform no norm. With it, the labels' separator ('' for flat labels) and
-- confidence (sqlnb.labels), and a multi-label model's threshold ({modes}: sql/multilabel/
-- modes.sql, the one query SQL reads the mark with; -1 for one label per document).
INSERT INTO sqlnb_ch_models
SELECT
  {model: String} AS model,
  arrayMap(x -> toString(x), l.labels) AS labels,
  arrayMap(s -> toFloat64(ifNull(s, 0)), l.base) AS base,
  arrayMap((z, s) -> toFloat64(z + if(s IS NULL, 1, 0)), l.base_zero, l.base) AS base_zero,
  toUInt8(l.presence) AS presence,
  toUInt8(l.zeros) AS zeros,
  toString(ifNull(l.settings, '')) AS settings,
  toUInt8(l.transformed) AS transformed,
  toUInt8(ifNull(l.sublinear, 0)) AS sublinear,
  toString(ifNull(l.norm, '')) AS norm,
  toFloat64(l.scale) AS scale,
  toUInt8(l.calibrated) AS calibrated,
  arrayMap(m -> toString(ifNull(m, '')), l.cal_method) AS cal_method,
  arrayMap(y -> arrayMap(v -> toFloat64(v), y), l.cal_lo) AS cal_lo,
  arrayMap(y -> arrayMap(v -> toFloat64(v), y), l.cal_a) AS cal_a,
  arrayMap(y -> arrayMap(v -> toFloat64(v), y), l.cal_b) AS cal_b,
  h.hierarchy AS hierarchy,
  h.confidence AS confidence,
  g.threshold AS threshold
FROM {row: Identifier} AS l
CROSS JOIN (
  SELECT
    JSONExtractString(any(params), 'hierarchy') AS hierarchy,
    toFloat64(ifNull(JSONExtractFloat(any(params), 'confidence'), 0)) AS confidence
  FROM sqlnb_models WHERE model = {model: String}
) AS h
CROSS JOIN (
  SELECT toFloat64(ifNull(any(m.threshold), -1)) AS threshold
  FROM {modes: Identifier} AS m WHERE m.model = {model: String}
) AS g
