-- A window aggregation: its window size is part of its state.
SET ods.clicks.`watermark` = 'WATERMARK FOR ts AS ts - INTERVAL ''1'' SECOND';

INSERT INTO dws.clicks_1m
SELECT window_start, user_id, COUNT(*) AS clicks
FROM TABLE(TUMBLE(TABLE ods.clicks, DESCRIPTOR(ts), INTERVAL '1' MINUTE))
GROUP BY window_start, window_end, user_id;
