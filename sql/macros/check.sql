-- A macro's value, or an error that names the model: one that does not exist, or one that
-- lacks what the macro needs ($needs: a table with a row for every model the macro serves;
-- $why says what a model without one is). A NULL model name is an error too.
SELECT
  CASE
    WHEN sqlnb_model IS NULL THEN ERROR('the model name is NULL')
    WHEN NOT EXISTS (SELECT 1 FROM sqlnb_models AS m WHERE m.model = sqlnb_model)
      THEN ERROR('no model named ''' || sqlnb_model || ''' in this database')
    WHEN NOT EXISTS (SELECT 1 FROM $needs AS n WHERE n.model = sqlnb_model)
      THEN ERROR('model ''' || sqlnb_model || ''' ' || $why)
    ELSE $value
  END AS value
