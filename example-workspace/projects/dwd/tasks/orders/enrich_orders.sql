-- Enrich every order line with the buyer and the product and write the
-- detail fact dwd_orders (append-only Kafka; the dws tasks read it).
--
-- Shows: lookup joins on jdbc dimensions of another project, a
-- processing-time attribute and a computed column declared by SET instead of
-- a view, tableType for a name that is both a stream and an offline table, a
-- table reference and a function call through a variable that holds a
-- project name (${dim_project}.dim_user, ${dim_project}:mask_phone), a
-- function of another project (dim:parse_ua), a bare built-in DATE_FORMAT,
-- Kafka header columns.

-- ods.kafka_orders resolves its own ${kafka_servers} in project ods (the
-- ingestion cluster); dwd_orders gets the workspace value (warehouse cluster).
SET ods.kafka_orders.`properties.group.id` = 'dwd_enrich_orders_${env}';

-- Lookup joins need a processing-time attribute on the probe side. Meta
-- tables declare none (in Dataphin it is task-level): this task adds one to
-- its copy of ods.kafka_orders, the DDL gets `proc_time AS PROCTIME()`.
SET ods.kafka_orders.procTime = proc_time AS PROCTIME();
-- A computed column, also task-level: the line amount in the source DDL.
SET ods.kafka_orders.computedColumn = line_amount AS CAST(quantity * unit_price AS DECIMAL(12, 2));

-- Project dim has two tables named dim_user: the jdbc dimension (stream) and
-- the MaxCompute snapshot (offline, dim/tables/dim_user_offline.yaml). A task
-- that uses the name must pick one, or the build fails with FX132.
SET ${dim_project}.dim_user.tableType = 'JDBC';

INSERT INTO dwd_orders
SELECT
  o.order_id,
  o.line_no,
  o.user_id,
  u.user_name,
  -- same as dim:mask_phone(...): the prefix is a variable holding a project name
  ${dim_project}:mask_phone(u.phone)                AS phone_masked,
  u.city,
  u.vip_level,
  o.product_id,
  p.product_name,
  p.category_id,
  p.category_name,
  p.brand,
  o.quantity,
  o.unit_price,
  o.line_amount,
  COALESCE(LOWER(o.channel), 'unknown')             AS channel,
  dim:parse_ua(o.user_agent)                        AS device_type,
  o.order_time,
  -- Flink's built-in: project dwd defines no DATE_FORMAT (compare dim/tasks/sync_dim_user.sql).
  DATE_FORMAT(o.order_time, 'yyyy-MM-dd')           AS order_date,
  o.topic                                           AS src_topic,
  o.`partition`                                     AS src_partition
FROM ods.kafka_orders AS o
LEFT JOIN ${dim_project}.dim_user FOR SYSTEM_TIME AS OF o.proc_time AS u
  ON o.user_id = u.user_id
LEFT JOIN dim.dim_product FOR SYSTEM_TIME AS OF o.proc_time AS p
  ON o.product_id = p.product_id
WHERE o.order_status <> 'TEST';
