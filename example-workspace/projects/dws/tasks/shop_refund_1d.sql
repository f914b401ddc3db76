-- Refunds per shop and day (dws_shop_refund_1d, jdbc upsert), written once
-- as a stream-batch integrated task:
--   flinkx build                -> reads the dwd_refunds Kafka topic, keeps
--                                  today's numbers current (an update stream
--                                  into the jdbc sink's primary key)
--   flinkx build --mode batch   -> reads the topic's HDFS archive, recomputes
--                                  every day (backfill after a fix)
--
-- Shows: a mirror table (dwd/tables/dwd_refunds_mirror.yaml) and task-level
-- options for one mode only: SET tbl.`stream`.key applies to the stream
-- build, SET tbl.batch.key to the batch build (`stream` is a reserved word,
-- hence the backticks).

-- Stream build: this job's own consumer group.
SET dwd.dwd_refunds_mirror.`stream`.`properties.group.id` = 'dws_shop_refund_1d_${env}';
-- Batch build: the archive has a few truncated lines from broker failovers;
-- skip them instead of failing the backfill.
SET dwd.dwd_refunds_mirror.batch.`json.ignore-parse-errors` = 'true';

-- Flink configuration, kept in the compiled script: in the stream build a
-- day's GROUP BY state can go 36 hours after its last change (late refunds
-- of yesterday still count). Batch jobs keep no state, and ignore it.
SET 'table.exec.state.ttl' = '36 h';

INSERT INTO dws_shop_refund_1d
SELECT
  apply_date                                       AS stat_date,
  shop_id,
  LAST_VALUE(shop_name)                            AS shop_name,
  COUNT(DISTINCT refund_id)                        AS refund_cnt,
  COUNT(DISTINCT CASE WHEN is_return THEN refund_id END) AS return_cnt,
  COUNT(DISTINCT user_id)                          AS refund_user_cnt,
  CAST(SUM(refund_amount) AS DECIMAL(16, 2))       AS refund_amount,
  MAX(apply_time)                                  AS last_apply_time
FROM dwd.dwd_refunds_mirror
WHERE shop_id IS NOT NULL
GROUP BY apply_date, shop_id;
