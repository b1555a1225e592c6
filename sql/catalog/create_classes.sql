-- Stored counts: training documents per class. class_id numbers the classes in the sorted order
-- of their labels (in the labels' own type), which is also the tie order of the argmax.
CREATE TABLE IF NOT EXISTS sqlnb_classes (
  model VARCHAR,
  class_id BIGINT,
  label VARCHAR,
  n_docs DOUBLE
)
