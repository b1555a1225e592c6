-- The dictionary of the words' weights by key (see dictionaries.sql.in).
CREATE DICTIONARY IF NOT EXISTS "default".sqlnb_ch_weights_dict (
  key UInt64,
  w Float64,
  z Float64,
  idf Float64
)
PRIMARY KEY key
SOURCE(CLICKHOUSE(TABLE 'sqlnb_ch_weights' DB 'default'))
LAYOUT(HASHED_ARRAY())
LIFETIME(0);
