-- The dictionary of the models' rows (see dictionaries.sql.in).
CREATE DICTIONARY IF NOT EXISTS "default".sqlnb_ch_models_dict (
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
)
PRIMARY KEY model
SOURCE(CLICKHOUSE(TABLE 'sqlnb_ch_models' DB 'default'))
LAYOUT(COMPLEX_KEY_HASHED())
LIFETIME(0);
