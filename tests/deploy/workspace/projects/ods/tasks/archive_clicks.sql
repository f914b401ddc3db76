-- Keep every click as CSV under the archive folder (a secret, filled at deploy time).
INSERT INTO ods.clicks_archive
SELECT user_id, url, ts
FROM ods.clicks;
