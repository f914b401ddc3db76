-- Click risk signals from the device profile (Blink 3.6+ syntax: SET and
-- /*+ ... */ TableHints).
--
-- Shows:
--   * a HEADER column by SET: `topic` of ods.ods_ad_click_msg (the region is
--     in the topic name); Blink declares it `topic VARCHAR HEADER`
--   * SET ... procTime = pt AS PROCTIME() for the lookup joins
--   * SET dim.uniqueindex = '...' (task-wide lookup key of a dimension
--     without a primary key) and the /*+ uniqueindex(...) */ and
--     /*+ index(...) */ hints that change it for one query. INDEX and UNIQUE
--     INDEX exist only on Blink (seed 000); engine flink rejects them (FX170).
--   * several INSERTs in one task: Blink runs them as one job (no
--     BEGIN STATEMENT SET on Blink).

SET ods.ods_ad_click_msg.`group.id` = 'risk_mark_click_risk_${env}';
SET ods.ods_ad_click_msg.topic.isHeader = true;
SET ods.ods_ad_click_msg.procTime = pt AS PROCTIME();

-- dim_device_profile declares no key. For this task its lookup key is the
-- SDK device id (a unique index in MySQL): the DDL gets UNIQUE INDEX (device_id).
SET dim_device_profile.uniqueindex = 'device_id';

-- Blink's kafka010 source hands over the raw message: parse it once.
CREATE VIEW clicks AS
SELECT
  JSON_VALUE(msg, '$.click_id')                                        AS click_id,
  JSON_VALUE(msg, '$.channel')                                         AS click_channel,
  REGEXP_EXTRACT(topic, 'ad_click_(.+)', 1)                            AS region,
  JSON_VALUE(msg, '$.device_id')                                       AS device_id,
  JSON_VALUE(msg, '$.oaid')                                            AS oaid,
  JSON_VALUE(msg, '$.ip')                                              AS client_ip,
  CAST(JSON_VALUE(msg, '$.ad_id') AS BIGINT)                           AS ad_id,
  CAST(JSON_VALUE(msg, '$.media_id') AS BIGINT)                        AS media_id,
  TO_TIMESTAMP(JSON_VALUE(msg, '$.click_time'), 'yyyy-MM-dd HH:mm:ss.SSS') AS click_time,
  pt
FROM (
  SELECT CAST(message AS VARCHAR) AS msg, topic, pt
  FROM ods.ods_ad_click_msg
) AS m;

-- 1. SDK clicks on a flagged device. Lookup key from the SET: device_id.
-- (check_click_placement.sql writes the placement signals into the same table: FX470 silenced)
INSERT INTO dwd_ad_click_risk  -- noqa: FX470
SELECT
  c.click_id, c.click_channel, c.region, c.device_id, c.client_ip, c.ad_id, c.media_id, c.click_time,
  'DEVICE' AS signal_type,
  CONCAT('device tags: ', d.risk_tags) AS signal_detail,
  d.risk_level
FROM clicks AS c
JOIN dim_device_profile FOR SYSTEM_TIME AS OF c.pt AS d
  ON c.device_id = d.device_id
WHERE c.click_channel = 'SDK' AND d.risk_level >= 2;

-- 2. Server-to-server clicks from media carry only the OAID. The hint makes
--    oaid the unique index for this lookup (hint beats SET: the DDL of this
--    query has UNIQUE INDEX (oaid), not device_id).
INSERT INTO dwd_ad_click_risk
SELECT
  c.click_id, c.click_channel, c.region, c.oaid AS device_id, c.client_ip, c.ad_id, c.media_id, c.click_time,
  'DEVICE' AS signal_type,
  CONCAT('device tags: ', d.risk_tags) AS signal_detail,
  d.risk_level
FROM clicks AS c
JOIN dim_device_profile /*+ uniqueindex(oaid) */ FOR SYSTEM_TIME AS OF c.pt AS d
  ON c.oaid = d.oaid
WHERE c.click_channel = 'S2S' AND d.risk_level >= 2;

-- 3. Any click from an IP on which a confirmed-fraud device was last seen
--    (device farms). last_ip is not unique: /*+ index(last_ip) */ adds
--    INDEX (last_ip) (the SET's UNIQUE INDEX (device_id) stays, the hint does
--    not replace a different parameter) and the lookup returns every device
--    on that IP, one signal row each.
INSERT INTO dwd_ad_click_risk
SELECT
  c.click_id, c.click_channel, c.region, COALESCE(c.device_id, c.oaid) AS device_id, c.client_ip, c.ad_id, c.media_id, c.click_time,
  'SHARED_IP' AS signal_type,
  CONCAT('ip shared with device ', d.device_id) AS signal_detail,
  d.risk_level
FROM clicks AS c
JOIN dim_device_profile /*+ index(last_ip) */ FOR SYSTEM_TIME AS OF c.pt AS d
  ON c.client_ip = d.last_ip
WHERE d.risk_level = 3 AND (c.device_id IS NULL OR d.device_id <> c.device_id);
