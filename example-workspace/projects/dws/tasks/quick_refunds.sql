-- Refunds applied for within an hour of their order: an event-time interval
-- join. Flink keeps an order until the join's watermark (the slower of the
-- two streams) passes order_time + 1 hour, so a refund stream that lags
-- still finds its orders (projects/dws/tests/timelines.yaml shows it).

SET dwd.dwd_orders.`properties.group.id` = 'dws_quick_refunds_${env}';
SET dwd.dwd_refunds.`properties.group.id` = 'dws_quick_refunds_${env}';
SET dwd.dwd_orders.`watermark` = 'WATERMARK FOR order_time AS order_time';
SET dwd.dwd_refunds.`watermark` = 'WATERMARK FOR apply_time AS apply_time';

INSERT INTO dws_quick_refunds
SELECT o.order_id, o.line_no, r.refund_id, r.refund_amount,
       CAST(o.order_time AS TIMESTAMP(3)) AS order_time, CAST(r.apply_time AS TIMESTAMP(3)) AS apply_time
FROM dwd.dwd_orders AS o
JOIN dwd.dwd_refunds AS r
  ON o.order_id = r.order_id AND o.line_no = r.line_no
 AND r.apply_time BETWEEN o.order_time AND o.order_time + INTERVAL '1' HOUR;
