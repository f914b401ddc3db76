-- Keep the real-time user profile in HBase (dws_user_profile) up to date from
-- two streams in one job: the latest order (family ord) and the latest refund
-- (family rfd).
--
-- Shows: /*+ dataphincolumns(rowkey, family.qualifier, ...) */ on an HBase
-- sink. Each INSERT writes the row key and only some qualifiers, so the
-- query has fewer columns than the table; the build gives each INSERT a DDL
-- cropped to exactly those columns (dws_user_profile and dws_user_profile__2)
-- and removes the hint. Appends are fine for HBase: a put on the same row key
-- overwrites, so the newest event wins.

SET dwd.dwd_orders.`properties.group.id` = 'dws_user_profile_hbase_${env}';
SET dwd.dwd_refunds.`properties.group.id` = 'dws_user_profile_hbase_${env}';

BEGIN STATEMENT SET;

-- Family ord without order_cnt_30d, which the offline warehouse writes daily.
INSERT INTO dws_user_profile /*+ dataphincolumns(rowkey, ord.last_order_id, ord.last_order_time, ord.last_channel, ord.last_device) */
SELECT
  CAST(user_id AS STRING)                          AS rowkey,
  ROW(order_id, order_time, channel, device_type)  AS ord
FROM dwd.dwd_orders
WHERE user_id IS NOT NULL;

-- Family rfd only (refunds whose buyer was found by phone).
INSERT INTO dws_user_profile /*+ dataphincolumns(rowkey, rfd.last_refund_id, rfd.last_refund_time, rfd.last_refund_amount, rfd.last_refund_type) */
SELECT
  CAST(user_id AS STRING)                                  AS rowkey,
  ROW(refund_id, apply_time, refund_amount, refund_type)   AS rfd
FROM dwd.dwd_refunds
WHERE user_id IS NOT NULL;

END;
