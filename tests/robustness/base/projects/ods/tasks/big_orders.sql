/* Big orders only. */
SELECT order_id, amount
FROM orders /*+ OPTIONS('scan.startup.mode'='latest-offset') */
WHERE amount > 100;
