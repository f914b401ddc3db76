-- Validate raw readings and convert power to kW: ods.ods_meter_reading ->
-- dw.dwd_meter_reading.
--
-- Shows (MRS only, seed 003):
--   * 'source.parallelism' from the meta table's with: (ods/tables/ods_meter_reading.yaml,
--     '4'): the compiled DDL keeps it
--   * /*+ DISTRIBUTEBY('meter_id') */ on the SELECT: with a source parallelism
--     different from the job's, readings are redistributed by meter_id, so
--     each meter's readings stay in order (the seed's recommended pairing).

SET ods.ods_meter_reading.`properties.group.id` = 'dw_clean_meter_reading_${env}';

INSERT INTO dwd_meter_reading
SELECT /*+ DISTRIBUTEBY('meter_id') */
  meter_id,
  station_id,
  read_time,
  voltage_v,
  current_a,
  active_power_w / 1000 AS active_power_kw,
  status_code > 0       AS alarm
FROM ods.ods_meter_reading
WHERE meter_id IS NOT NULL
  AND voltage_v BETWEEN 0 AND 1000
  AND active_power_w >= 0;
