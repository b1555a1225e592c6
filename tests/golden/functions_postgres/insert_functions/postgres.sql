INSERT INTO sqlnb_functions (
  version,
  settings
)
SELECT
  '<version>' AS version,
  '{"lowercase": true, "ngrams": [1, 1], "pattern": "[\\pL\\pN]+(?:''[\\pL\\pN]+)*", "stop_words": []}' AS settings
UNION ALL
SELECT
  '<version>' AS version,
  '=model ["mail", "[\"multinomial\", [false, false], {\"lowercase\": true, \"ngrams\": [1, 1], \"pattern\": \"[\\\\pL\\\\pN]+(?:''[\\\\pL\\\\pN]+)*\", \"stop_words\": []}, null]"]' AS settings;
