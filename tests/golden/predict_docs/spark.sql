DROP TABLE IF EXISTS `mailed`;
@create_mailed
