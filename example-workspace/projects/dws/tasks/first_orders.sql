-- The first order line of each buyer, and again once its state has expired:
-- a processing-time deduplication whose state lives 1 hour (state TTL,
-- counted from when the buyer's first row was kept; later rows do not
-- extend it). projects/dws/tests/timelines.yaml plays the hour in one step.

SET 'table.exec.state.ttl' = '1 h';
SET dwd.dwd_orders.`properties.group.id` = 'dws_first_orders_${env}';
SET dwd.dwd_orders.procTime = proc_time AS PROCTIME();

INSERT INTO dws_first_orders
SELECT order_id, user_id, channel, line_amount
FROM (
  SELECT order_id, user_id, channel, line_amount,
         ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY proc_time ASC) AS rn
  FROM dwd.dwd_orders
)
WHERE rn = 1;
