-- Clicks on a media the ad is not booked on (or whose booking is paused).
-- This job dates from Blink 3.4, before TableHints, and keeps the legacy
-- join-key syntax that Dataphin still accepts on Blink (seed 000: "The join
-- with syntax was used in earlier versions of the Blink engine").
--
-- Shows:
--   * JOIN dim WITH (index = '...') FOR SYSTEM_TIME AS OF PROCTIME(), written
--     exactly as in seed 000 (no alias): INDEX (ad_id) in the DDL; the same
--     key that advertiser_risk_1m.sql sets with SET dim_ad_placement.index
--   * JOIN dim WITH (primarykey = '...'): PRIMARY KEY (device_id) in the DDL
--     (Blink's PRIMARY KEY has no NOT ENFORCED)
--   * the lookups use PROCTIME() directly (no procTime SET), as in the seed
--   * the same HEADER SET as mark_click_risk.sql (region from the topic)

SET ods.ods_ad_click_msg.`group.id` = 'risk_check_click_placement_${env}';
SET ods.ods_ad_click_msg.topic.isHeader = true;

CREATE VIEW clicks AS
SELECT
  JSON_VALUE(msg, '$.click_id')                 AS click_id,
  JSON_VALUE(msg, '$.channel')                  AS click_channel,
  REGEXP_EXTRACT(topic, 'ad_click_(.+)', 1)     AS region,
  COALESCE(JSON_VALUE(msg, '$.device_id'), JSON_VALUE(msg, '$.oaid')) AS device_id,
  JSON_VALUE(msg, '$.ip')                       AS client_ip,
  CAST(JSON_VALUE(msg, '$.ad_id') AS BIGINT)    AS ad_id,
  CAST(JSON_VALUE(msg, '$.media_id') AS BIGINT) AS media_id,
  TO_TIMESTAMP(JSON_VALUE(msg, '$.click_time'), 'yyyy-MM-dd HH:mm:ss.SSS') AS click_time
FROM (
  SELECT CAST(message AS VARCHAR) AS msg, topic
  FROM ods.ods_ad_click_msg
) AS m;

-- mark_click_risk.sql writes the other signal types into the same topic on purpose
-- (one risk-signal stream for billing), so FX470 is silenced here and there.
INSERT INTO dwd_ad_click_risk  -- noqa: FX470
SELECT
  c.click_id, c.click_channel, c.region, c.device_id, c.client_ip, c.ad_id, c.media_id, c.click_time,
  'PLACEMENT' AS signal_type,
  CONCAT('ad ', CAST(c.ad_id AS VARCHAR), ' not booked on media ', CAST(c.media_id AS VARCHAR)) AS signal_detail,
  -- worse when the device is already flagged
  CASE WHEN d.risk_level >= 2 THEN 3 ELSE 2 END AS risk_level
FROM clicks AS c
LEFT JOIN dim_ad_placement WITH (index = 'ad_id') FOR SYSTEM_TIME AS OF PROCTIME()
  ON c.ad_id = dim_ad_placement.ad_id AND c.media_id = dim_ad_placement.media_id
LEFT JOIN dim_device_profile WITH (primarykey = 'device_id') FOR SYSTEM_TIME AS OF PROCTIME() AS d
  ON c.device_id = d.device_id
WHERE dim_ad_placement.ad_id IS NULL OR dim_ad_placement.status = 'PAUSED';
