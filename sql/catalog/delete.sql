-- Remove one model's rows from one of sqlnb's tables ($table is always an sqlnb_* table).
DELETE FROM $table WHERE model = $model
