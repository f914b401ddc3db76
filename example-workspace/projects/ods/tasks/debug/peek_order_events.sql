-- Debug task: print live order events to the TaskManager's stdout, e.g. to
-- check a new release of the order service. Start it, look, cancel it.
--
-- Shows: a task-local table in plain Flink DDL (print connector, `--` comments
-- in WITH as Huawei DLI's manual writes them), an OPTIONS hint and a SET on a
-- meta table, the Kafka headers `topic` and `partition`, a built-in hash SHA2.

-- Task-wide: this task consumes with its own group.
SET kafka_orders.`properties.group.id` = 'ods_peek_order_events_${env}';

CREATE TEMPORARY TABLE peek_sink (
  src_topic     STRING,
  src_partition INT,
  order_id      STRING,
  line_no       INT,
  user_hash     STRING,  -- SHA-256 of the buyer id: the log shows no buyer
  channel       STRING,
  line_amount   DECIMAL(12, 2),
  order_time    TIMESTAMP(3)
) WITH (
  'connector' = 'print',                   -- rows go to the TaskManager's stdout
  'print-identifier' = 'peek-order-events' -- the prefix of every printed row
);

INSERT INTO peek_sink
SELECT
  topic                                        AS src_topic,
  `partition`                                  AS src_partition,
  order_id,
  line_no,
  SHA2(CAST(user_id AS STRING), 256)           AS user_hash,
  channel,
  CAST(quantity * unit_price AS DECIMAL(12, 2)) AS line_amount,
  order_time
-- For this query only: start at the end of the topic, not at the group offsets.
FROM kafka_orders /*+ OPTIONS('scan.startup.mode' = 'latest-offset') */
WHERE order_status <> 'TEST';
