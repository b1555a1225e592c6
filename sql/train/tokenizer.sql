-- Derived: the model's tokenizer (sqlnb_tokenizers), when it was trained from raw text.
INSERT INTO sqlnb_tokenizers (model, settings, lowercase, pattern, ngram_min, ngram_max)
SELECT
  $model AS model,
  $settings AS settings,
  $lowercase AS lowercase,
  $pattern AS pattern,
  $ngram_min AS ngram_min,
  $ngram_max AS ngram_max
