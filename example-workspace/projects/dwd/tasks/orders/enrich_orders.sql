-- Enrich every order line with the buyer and the product and write the
-- detail fact dwd_orders (append-only Kafka; the dws tasks read it).
--
-- Shows: lookup joins on jdbc dimensions of another project, a table
-- reference through a variable that holds a project name
-- (${dim_project}.dim_user), functions of another project (dim:mask_phone,
-- dim:parse_ua), a bare built-in DATE_FORMAT, Kafka header columns.

-- ods.kafka_orders resolves its own ${kafka_servers} in project ods (the
-- ingestion cluster); dwd_orders gets the workspace value (warehouse cluster).
SET ods.kafka_orders.`properties.group.id` = 'dwd_enrich_orders_${env}';

-- Lookup joins need a processing-time attribute on the probe side. Meta
-- tables declare no computed columns (in Dataphin those are task-level), so
-- this task-local view adds one.
CREATE TEMPORARY VIEW o AS
SELECT *, PROCTIME() AS proc_time
FROM ods.kafka_orders
WHERE order_status <> 'TEST';

INSERT INTO dwd_orders
SELECT
  o.order_id,
  o.line_no,
  o.user_id,
  u.user_name,
  dim:mask_phone(u.phone)                           AS phone_masked,
  u.city,
  u.vip_level,
  o.product_id,
  p.product_name,
  p.category_id,
  p.category_name,
  p.brand,
  o.quantity,
  o.unit_price,
  CAST(o.quantity * o.unit_price AS DECIMAL(12, 2)) AS line_amount,
  COALESCE(LOWER(o.channel), 'unknown')             AS channel,
  dim:parse_ua(o.user_agent)                        AS device_type,
  o.order_time,
  -- Flink's built-in: project dwd defines no DATE_FORMAT (compare dim/tasks/sync_dim_user.sql).
  DATE_FORMAT(o.order_time, 'yyyy-MM-dd')           AS order_date,
  o.topic                                           AS src_topic,
  o.`partition`                                     AS src_partition
FROM o
LEFT JOIN ${dim_project}.dim_user FOR SYSTEM_TIME AS OF o.proc_time AS u
  ON o.user_id = u.user_id
LEFT JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.proc_time AS p
  ON o.product_id = p.product_id;
