SET join_use_nulls = 1;
SET prefer_column_name_to_alias = 1;
SET create_table_empty_primary_key_by_default = 1;
DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
@outcomes
@confusion
@per_class
@summary
@reliability
DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
