-- Per (class, word) the multinomial or complement score of one occurrence: log theta.
SELECT lt.class_id AS class_id, lt.word AS word, lt.log_theta AS score
FROM sqlnb_log_theta AS lt
WHERE lt.model = $model
