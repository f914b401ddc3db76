BEGIN STATEMENT SET;
INSERT INTO dim.dim_user SELECT user_id, order_id FROM orders;
