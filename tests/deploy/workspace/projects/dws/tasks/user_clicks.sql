-- A group aggregation: its state (one count per user) survives an upgrade that keeps it.
INSERT INTO dws.user_clicks
SELECT user_id, COUNT(*) AS clicks
FROM ods.clicks
GROUP BY user_id;
