  SELECT DISTINCT
    doc_id
  FROM sqlnb_truth AS s
