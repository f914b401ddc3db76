-- Per-minute order stats per channel: a 1-minute tumbling event-time window
-- over dwd.dwd_orders (written by dwd/tasks/orders/enrich_orders.sql).
--
-- Meta tables declare no watermark (task-level in Dataphin), so this task
-- SETs one on dwd.dwd_orders. Dataphin 3.7 form: the value is a quoted string
-- (quotes inside it doubled).

SET dwd.dwd_orders.`watermark` = 'WATERMARK FOR order_time AS order_time - INTERVAL ''5'' SECOND';
SET dwd.dwd_orders.`properties.group.id` = 'dws_order_stats_1m_${env}';

-- A window aggregate emits each window once (insert-only); the jdbc sink's
-- primary key makes re-writes after a restart idempotent.
INSERT INTO dws_order_stats_1m
SELECT
  window_start,
  window_end,
  channel,
  COUNT(DISTINCT order_id)                 AS order_cnt,
  COUNT(DISTINCT user_id)                  AS buyer_cnt,
  SUM(CAST(quantity AS BIGINT))            AS item_qty,
  CAST(SUM(line_amount) AS DECIMAL(16, 2)) AS gmv
FROM TABLE(
  TUMBLE(TABLE dwd.dwd_orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE)
)
GROUP BY window_start, window_end, channel;
