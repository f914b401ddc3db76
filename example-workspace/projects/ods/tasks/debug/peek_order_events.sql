-- Debug task: print live order events to the TaskManager's stdout, e.g. to
-- check a new release of the order service. Start it, look, cancel it.
--
-- Shows: a task-local table in plain Flink DDL (CREATE TEMPORARY TABLE with
-- the print connector), an OPTIONS hint on a meta table, SET on a meta table
-- option, and the Kafka header columns `topic` and `partition`.

-- Task-wide: this task consumes with its own group.
SET kafka_orders.`properties.group.id` = 'ods_peek_order_events_${env}';

CREATE TEMPORARY TABLE peek_sink (
  src_topic     STRING,
  src_partition INT,
  order_id      STRING,
  line_no       INT,
  user_id       BIGINT,
  channel       STRING,
  line_amount   DECIMAL(12, 2),
  order_time    TIMESTAMP(3)
) WITH (
  'connector' = 'print',
  'print-identifier' = 'peek-order-events'
);

INSERT INTO peek_sink
SELECT
  topic                                        AS src_topic,
  `partition`                                  AS src_partition,
  order_id,
  line_no,
  user_id,
  channel,
  CAST(quantity * unit_price AS DECIMAL(12, 2)) AS line_amount,
  order_time
-- For this query only: start at the end of the topic, not at the group offsets.
FROM kafka_orders /*+ OPTIONS('scan.startup.mode' = 'latest-offset') */
WHERE order_status <> 'TEST';
