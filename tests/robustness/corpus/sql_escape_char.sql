SELECT order_id
 FROM orders[31m;
