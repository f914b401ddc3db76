-- Two aggregates over dwd.dwd_orders in one job: a statement set reads the
-- source once and feeds both sinks.
--
-- GROUP BY without a window produces an update stream, so both sinks are
-- upsert-capable and have a primary key: upsert-kafka (dws_category_gmv_1d)
-- and jdbc (dws_user_order_stats). Also shows Flink configuration by SET
-- (mini-batch aggregation) and a task-local TEMPORARY VIEW.

SET dwd.dwd_orders.`properties.group.id` = 'dws_category_user_stats_${env}';

-- Flink's own configuration (quoted key): not a table option, so the build
-- keeps these SETs in the compiled script. Mini-batch buffers input for up to
-- 2 s and updates the GROUP BY state once per batch, which cuts state access
-- and the number of updates sent to the two upsert sinks.
SET 'table.exec.mini-batch.enabled' = 'true';
SET 'table.exec.mini-batch.allow-latency' = '2 s';
SET 'table.exec.mini-batch.size' = '5000';

CREATE TEMPORARY VIEW valid_lines AS
SELECT *
FROM dwd.dwd_orders
WHERE line_amount > 0;

BEGIN STATEMENT SET;

INSERT INTO dws_category_gmv_1d
SELECT
  order_date                               AS stat_date,
  category_id,
  LAST_VALUE(category_name)                AS category_name,
  COUNT(DISTINCT order_id)                 AS order_cnt,
  COUNT(DISTINCT user_id)                  AS buyer_cnt,
  CAST(SUM(line_amount) AS DECIMAL(16, 2)) AS gmv,
  MAX(order_time)                          AS last_order_time
FROM valid_lines
WHERE category_id IS NOT NULL
GROUP BY order_date, category_id;

INSERT INTO dws_user_order_stats
SELECT
  user_id,
  COUNT(DISTINCT order_id)                 AS order_cnt,
  SUM(CAST(quantity AS BIGINT))            AS item_qty,
  CAST(SUM(line_amount) AS DECIMAL(16, 2)) AS total_amount,
  MIN(order_time)                          AS first_order_time,
  MAX(order_time)                          AS last_order_time
FROM valid_lines
WHERE user_id IS NOT NULL
GROUP BY user_id;

END;
