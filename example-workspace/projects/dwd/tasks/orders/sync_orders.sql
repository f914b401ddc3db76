-- Latest state of each order: ods.orders (the mysql-cdc changelog of the
-- OLTP orders table) -> dwd.orders (upsert-kafka keyed by order_id).
--
-- Both tables are named `orders`; the project prefix tells them apart. A bare
-- `orders` in this task would mean dwd.orders, the task's own project.

-- Every mysql-cdc job needs its own server-id range: readers sharing an id
-- would read from the wrong binlog position.
SET ods.orders.`server-id` = '5431-5434';

INSERT INTO dwd.orders
SELECT
  order_id,
  user_id,
  -- dwd's own (Python) function: a bare name resolves in the current project first.
  normalize_status(order_status)                  AS order_status,
  total_amount,
  COALESCE(pay_amount, CAST(0 AS DECIMAL(12, 2))) AS pay_amount,
  LOWER(pay_channel)                              AS pay_channel,
  paid_at IS NOT NULL                             AS is_paid,
  created_at,
  paid_at,
  updated_at
FROM ods.orders
WHERE order_id IS NOT NULL;
