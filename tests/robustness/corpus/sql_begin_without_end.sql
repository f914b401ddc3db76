BEGIN STATEMENT SET;
INSERT INTO dim.user_orders SELECT order_id, order_id, amount FROM orders;
