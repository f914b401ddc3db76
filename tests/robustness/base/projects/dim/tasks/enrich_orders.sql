-- Orders with the user's masked name.
SET ods.orders.`watermark` = 'WATERMARK FOR ts AS ts - INTERVAL ''5'' SECOND';

INSERT INTO user_orders
SELECT o.order_id, mask_name(u.user_name), o.amount
FROM ods.orders AS o
JOIN dim_user FOR SYSTEM_TIME AS OF PROCTIME() AS u
  ON o.user_id = u.user_id;
