-- Orders and refunds per minute: one tumbling window over both streams. The
-- window's watermark is the smaller of the two: it fires only when both
-- streams have passed its end, or when the quiet one is idle.

SET dwd.dwd_orders.`properties.group.id` = 'dws_activity_1m_${env}';
SET dwd.dwd_refunds.`properties.group.id` = 'dws_activity_1m_${env}';
SET dwd.dwd_orders.`watermark` = 'WATERMARK FOR order_time AS order_time';
SET dwd.dwd_refunds.`watermark` = 'WATERMARK FOR apply_time AS apply_time';

CREATE TEMPORARY VIEW activity AS
SELECT 'order' AS event_kind, order_time AS event_time FROM dwd.dwd_orders
UNION ALL
SELECT 'refund' AS event_kind, apply_time AS event_time FROM dwd.dwd_refunds;

INSERT INTO dws_activity_1m
SELECT window_start, window_end, event_kind, COUNT(*) AS events
FROM TABLE(TUMBLE(TABLE activity, DESCRIPTOR(event_time), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, event_kind;
