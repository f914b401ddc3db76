-- Risky clicks per advertiser and minute, for the billing credit job: a
-- 1-minute tumbling event-time window over the signals in dwd_ad_click_risk.
--
-- Shows:
--   * the Dataphin 3.6 watermark SET: the value is unquoted
--     (dataphin_version "3.6" in flinkx.yaml; 3.7 requires quotes, FX03).
--     Blink keeps withOffset(click_time, 2000) as written (on engine flink
--     it becomes click_time - INTERVAL '2' SECOND).
--   * SET dim.index = '...': a non-unique lookup key (INDEX (ad_id)); the ON
--     condition also matches media_id, so each click finds its one booking.
--   * Blink's group window (GROUP BY TUMBLE(...), TUMBLE_START/TUMBLE_END).

SET dwd_ad_click_risk.`watermark` = WATERMARK FOR click_time AS withOffset(click_time, 2000);
SET dim_ad_placement.index = 'ad_id';

-- Only booked clicks are billed; PLACEMENT signals (not booked) drop out here.
CREATE VIEW booked_risk AS
SELECT
  r.click_id,
  r.device_id,
  r.signal_type,
  r.risk_level,
  r.click_time,
  p.advertiser_id
FROM dwd_ad_click_risk AS r
JOIN dim_ad_placement FOR SYSTEM_TIME AS OF PROCTIME() AS p
  ON r.ad_id = p.ad_id AND r.media_id = p.media_id;

INSERT INTO ads_advertiser_risk_1m
SELECT
  TUMBLE_START(click_time, INTERVAL '1' MINUTE) AS window_start,
  TUMBLE_END(click_time, INTERVAL '1' MINUTE)   AS window_end,
  advertiser_id,
  COUNT(DISTINCT click_id)                      AS risky_click_cnt,
  COUNT(DISTINCT device_id)                     AS risky_device_cnt,
  CAST(SUM(CASE WHEN signal_type = 'DEVICE' THEN 1 ELSE 0 END) AS BIGINT)    AS device_signal_cnt,
  CAST(SUM(CASE WHEN signal_type = 'SHARED_IP' THEN 1 ELSE 0 END) AS BIGINT) AS shared_ip_signal_cnt,
  MAX(risk_level)                               AS max_risk_level
FROM booked_risk
GROUP BY TUMBLE(click_time, INTERVAL '1' MINUTE), advertiser_id;
