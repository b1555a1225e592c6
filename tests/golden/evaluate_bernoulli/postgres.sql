DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
@outcomes
ANALYZE sqlnb_outcomes_xxxxxxxx;
@confusion
@per_class
@summary
@reliability
DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
