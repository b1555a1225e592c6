DROP TABLE IF EXISTS "predictions";
@create_predictions
ANALYZE "predictions";
