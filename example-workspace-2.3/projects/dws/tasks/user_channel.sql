-- Orders per (user, channel), written to a table keyed by user alone. The query's upsert key
-- (user_id, channel) is wider than the sink's primary key: Flink 2.3 refuses that without an
-- ON CONFLICT clause (FLIP-558). DO DEDUPLICATE keeps the latest row per user.
INSERT INTO dws_user_channel
SELECT user_id, channel, COUNT(*) AS orders
FROM ods.ods_orders
GROUP BY user_id, channel
ON CONFLICT DO DEDUPLICATE;
