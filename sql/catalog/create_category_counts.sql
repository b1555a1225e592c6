-- Stored counts (categorical features): rows per (class, feature, value); values as text.
CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model VARCHAR,
  class_id BIGINT,
  feature VARCHAR,
  value VARCHAR,
  count DOUBLE
)
