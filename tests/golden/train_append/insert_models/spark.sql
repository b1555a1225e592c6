INSERT OVERWRITE TABLE `sqlnb_models` PARTITION(model = 'spam') (
  kind,
  params,
  label_type,
  n_docs,
  n_classes,
  n_features,
  trained_at,
  version
)
SELECT
  NULL AS kind,
  NULL AS params,
  NULL AS label_type,
  NULL AS n_docs,
  NULL AS n_classes,
  NULL AS n_features,
  NULL AS trained_at,
  NULL AS version
WHERE
  FALSE;
