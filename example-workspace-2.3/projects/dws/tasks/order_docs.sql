-- The order payload as a VARIANT (Flink 2.1+): parsed once here, queried without a fixed schema.
INSERT INTO dws_order_docs
SELECT order_id, PARSE_JSON(payload)
FROM ods.ods_orders;
