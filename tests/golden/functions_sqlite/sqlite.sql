@query
