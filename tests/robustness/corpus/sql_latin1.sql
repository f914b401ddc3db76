SELECT 'café' FROM orders;
