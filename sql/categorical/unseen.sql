-- A categorical value never seen in training, to name it (predict --unseen error).
SELECT x.feature AS feature, x.value AS value
FROM $values AS x
LEFT JOIN (
  SELECT DISTINCT feature, value FROM sqlnb_category_counts WHERE model = $model
) AS k
  ON k.feature = x.feature AND k.value = x.value
WHERE k.feature IS NULL
ORDER BY 1, 2
LIMIT 1
