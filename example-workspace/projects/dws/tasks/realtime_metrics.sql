-- Headline metrics for the real-time dashboard, from the order state that
-- dwd/tasks/orders/sync_orders.sql keeps in dwd.orders (a changelog: an
-- order that is refunded later is retracted from the sums).
--
-- Shows: a (non-temporary) CREATE VIEW, an OPTIONS hint on another project's
-- table, the built-in DATE_FORMAT, and the reserved-word column `value`.

CREATE VIEW paid_orders AS
SELECT
  order_id,
  user_id,
  pay_amount,
  paid_at,
  DATE_FORMAT(paid_at, 'yyyy-MM-dd') AS stat_date
FROM dwd.orders /*+ OPTIONS('properties.group.id' = 'dws_realtime_metrics_${env}') */
WHERE is_paid
  AND order_status NOT IN ('CANCELLED', 'REFUNDED');

-- GROUP BY -> update stream -> upsert-kafka sink keyed by (stat_date, metric_name).
INSERT INTO dws_realtime_metrics
SELECT stat_date, 'paid_gmv' AS metric_name, CAST(SUM(pay_amount) AS DOUBLE) AS `value`, MAX(paid_at) AS update_time
FROM paid_orders
GROUP BY stat_date
UNION ALL
SELECT stat_date, 'paid_order_cnt', CAST(COUNT(*) AS DOUBLE), MAX(paid_at)
FROM paid_orders
GROUP BY stat_date
UNION ALL
SELECT stat_date, 'paying_user_cnt', CAST(COUNT(DISTINCT user_id) AS DOUBLE), MAX(paid_at)
FROM paid_orders
GROUP BY stat_date;
