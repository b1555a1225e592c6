@classify
@proba
@create_functions
CREATE TABLE `sqlnb_functions__sqlnb_keep_<random>` AS
SELECT
  *
FROM sqlnb_functions
WHERE
  NOT TRUE;
DROP TABLE IF EXISTS sqlnb_functions;
ALTER TABLE `sqlnb_functions__sqlnb_keep_<random>`
RENAME TO sqlnb_functions;
@insert_functions
