CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model VARCHAR,
  class_id BIGINT,
  feature VARCHAR,
  value VARCHAR,
  count DOUBLE
);
