-- Remove one of sqlnb's macros (when no text model is left).
DROP MACRO IF EXISTS $macro
