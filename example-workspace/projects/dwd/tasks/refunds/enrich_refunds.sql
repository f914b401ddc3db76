-- Enrich refund applications from the after-sales SaaS and write the detail
-- fact dwd_refunds (append-only Kafka).
--
-- Everything a Dataphin meta table leaves to the task is declared here by
-- SET: Kafka header columns (isHeader), computed columns (the parenthesised
-- multi-column form), the processing-time attribute, the lookup key of a
-- dimension without one, and column pruning of that wide dimension. A
-- /*+ primarykey(...) */ hint changes dim_user's key for one lookup, and
-- tableType picks the stream dim_user (project dim also has an offline one).

SET ods.kafka_refunds.`properties.group.id` = 'dwd_enrich_refunds_${env}';

-- `offset` and `timestamp` are plain columns in the meta table; here they
-- become the record's Kafka metadata (METADATA VIRTUAL in the DDL). Reserved
-- words need backticks. Both value forms of seed 000: true and 'true'.
SET ods.kafka_refunds.`offset`.isHeader = true;
SET ods.kafka_refunds.`timestamp`.isHeader = 'true';

-- Two computed columns in one SET (the parenthesised form), plus the
-- processing-time attribute the lookup joins need.
SET ods.kafka_refunds.computedColumn = (
  apply_date AS DATE_FORMAT(apply_time, 'yyyy-MM-dd'),
  is_return AS refund_type = 'RETURN_AND_REFUND'
);
SET ods.kafka_refunds.procTime = proc_time AS PROCTIME();

-- dim_shop declares no key (its MySQL key is a surrogate id). Task-wide, this
-- task joins it on shop_id; and of its 19 columns the lookup DDL keeps only
-- the key and the columns this task reads.
SET dim.dim_shop.primarykey = 'shop_id';
SET dim.dim_shop.dataphinColumnPruning = 'true';

-- The stream dim_user, not the MaxCompute snapshot of the same name.
SET dim.dim_user.tableType = 'JDBC';

INSERT INTO dwd_refunds
SELECT
  r.refund_id,
  r.order_id,
  r.line_no,
  u.user_id,
  dim:mask_phone(r.contact_phone) AS phone_masked,
  r.shop_id,
  s.shop_name,
  s.shop_type,
  s.shop_level,
  s.seller_id,
  r.refund_type,
  r.is_return,
  r.reason_code,
  r.refund_amount,
  r.apply_time,
  r.apply_date,
  r.`offset` AS src_offset,
  r.`timestamp` AS src_kafka_time
FROM ods.kafka_refunds AS r
-- The SaaS knows the buyer only by phone (unique per account). dim_user's
-- meta table key is user_id; for this lookup the hint makes it phone (the
-- build turns the hint into the DDL's PRIMARY KEY and removes it).
LEFT JOIN dim.dim_user /*+ primarykey(phone) */ FOR SYSTEM_TIME AS OF r.proc_time AS u
  ON r.contact_phone = u.phone
-- Key from the SET above: shop_id.
LEFT JOIN dim.dim_shop FOR SYSTEM_TIME AS OF r.proc_time AS s
  ON r.shop_id = s.shop_id;
