CREATE TABLE IF NOT EXISTS sqlnb_category_counts (
  model TEXT,
  class_id INTEGER,
  feature TEXT,
  value TEXT,
  count REAL
);
