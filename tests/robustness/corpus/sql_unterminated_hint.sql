SELECT order_id FROM orders /*+ OPTIONS('a'='b')
