DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
@outcomes
@confusion
@per_class
@summary
@reliability
DROP TABLE IF EXISTS sqlnb_outcomes_xxxxxxxx;
