-- Load per station in 5-minute event-time windows, and the readings that
-- arrive too late for their window.
--
-- Shows (MRS only, seed 003):
--   * /*+ LATE_DATA_SINK('sink.name'='...', 'window.start.field'='...',
--     'window.end.field'='...') */ on a window aggregation: late readings go
--     to the meta table dwd_meter_reading_late (the build adds its DDL) with
--     the bounds of the window they missed in two TIMESTAMP(3) columns
--   * 'source.parallelism' by SET on a Kafka source (the meta table has none)
--   * the watermark SET in Dataphin 3.7's quoted form; withOffset(...) becomes
--     read_time - INTERVAL '30' SECOND (MRS runs Apache Flink SQL)

SET dwd_meter_reading.`properties.group.id` = 'dw_station_load_5m_${env}';
SET dwd_meter_reading.`source.parallelism` = '4';
SET dwd_meter_reading.`watermark` = 'WATERMARK FOR read_time AS withOffset(read_time, 30000)';

INSERT INTO dws_station_load_5m
SELECT /*+ LATE_DATA_SINK('sink.name'='dwd_meter_reading_late', 'window.start.field'='late_window_start', 'window.end.field'='late_window_end') */
  window_start,
  window_end,
  station_id,
  COUNT(DISTINCT meter_id) AS meter_cnt,
  AVG(active_power_kw)     AS avg_power_kw,
  MAX(active_power_kw)     AS max_power_kw,
  MIN(voltage_v)           AS min_voltage_v
FROM TABLE(
  TUMBLE(TABLE dwd_meter_reading, DESCRIPTOR(read_time), INTERVAL '5' MINUTE)
)
GROUP BY station_id, window_start, window_end;
