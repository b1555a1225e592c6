@raise
-- Before sqlnb_classify is created returning TEXT (TEXT[] in a database with a
-- multi-label model: sqlnb.multilabel; TEXT otherwise): each sqlnb_classify of the models'
-- schema that returns another type is dropped (CREATE OR REPLACE cannot change a function's
-- return type). A function of that name another role made in another schema is not touched.
DO $sqlnb$
DECLARE
  f pg_catalog.regprocedure;
BEGIN
  FOR f IN
    SELECT p.oid::pg_catalog.regprocedure
    FROM pg_catalog.pg_proc AS p
    WHERE p.pronamespace = '"public"'::pg_catalog.regnamespace
      AND p.proname = 'sqlnb_classify'
      AND p.prorettype <> 'TEXT'::pg_catalog.regtype
  LOOP
    EXECUTE pg_catalog.format('DROP FUNCTION %s', f);
  END LOOP;
END
$sqlnb$;
@classify
@proba
@classify_text_varchar
@classify_text_bpchar
@classify_varchar_text
@classify_varchar_varchar
@classify_varchar_bpchar
@classify_bpchar_text
@classify_bpchar_varchar
@classify_bpchar_bpchar
@proba_text_varchar
@proba_text_bpchar
@proba_varchar_text
@proba_varchar_varchar
@proba_varchar_bpchar
@proba_bpchar_text
@proba_bpchar_varchar
@proba_bpchar_bpchar
@predict_text_text_anyelement
@predict
@create_functions
DELETE FROM sqlnb_functions
WHERE
  TRUE;
@insert_functions
