@create_lookup
@classify
@proba
@predict
@create_functions
DELETE FROM sqlnb_functions
WHERE
  TRUE;
@insert_functions
