-- A word's weight per class in the joint log-likelihood of multinomial and complement models:
-- log theta (complement: its weights), multiplied by the word's count. NULL is -infinity.
SELECT
  lt.class_id AS class_id,
  lt.word AS word,
  lt.log_theta AS weight
FROM sqlnb_log_theta AS lt
WHERE lt.model = $model
