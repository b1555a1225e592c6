CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model TEXT,
  class_id BIGINT,
  feature TEXT,
  value TEXT,
  count DOUBLE PRECISION
);
