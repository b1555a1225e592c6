SET join_use_nulls = 1;
SET prefer_column_name_to_alias = 1;
SET create_table_empty_primary_key_by_default = 1;
DROP TABLE IF EXISTS "mailed";
@create_mailed
