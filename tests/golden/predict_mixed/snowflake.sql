DROP TABLE IF EXISTS "triaged";
@create_triaged
