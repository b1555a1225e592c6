-- Drop a view if it exists (tune's temporary fold views).
DROP VIEW IF EXISTS $view
