-- Per text model, what ClickHouse's SQL functions read besides its words (model.clickhouse.sql
-- writes it): its labels, base and base zero counts per class in class order, whether a word
-- counts once, whether a word has a zero count, its tokenizer's settings, its document
-- transform, its calibration, its labels' separator ('' for flat labels) and confidence, its
-- multi-label threshold (-1 for one label per document).
CREATE TABLE IF NOT EXISTS "default".sqlnb_ch_models (
  model String,
  labels Array(String),
  base Array(Float64),
  base_zero Array(Float64),
  presence UInt8,
  zeros UInt8,
  settings String,
  transformed UInt8,
  sublinear UInt8,
  norm String,
  scale Float64,
  calibrated UInt8,
  cal_method Array(String),
  cal_lo Array(Array(Float64)),
  cal_a Array(Array(Float64)),
  cal_b Array(Array(Float64)),
  hierarchy String,
  confidence Float64,
  threshold Float64
) ENGINE = MergeTree ORDER BY model;
