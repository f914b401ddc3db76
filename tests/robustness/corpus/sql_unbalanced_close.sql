SELECT order_id) FROM orders;
