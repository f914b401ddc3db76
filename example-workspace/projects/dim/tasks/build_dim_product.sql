-- Build the product dimension from the product center.
--
-- ods.product_changes carries ids only; the product itself is looked up in
-- the product center's HBase table (ods.products, row key = the product id
-- as a string) when the change arrives, and upserted into dim_product.
-- DELETE notifications are ignored on purpose: late order events may still
-- refer to a deleted product.

SET ods.product_changes.`properties.group.id` = 'dim_build_dim_product_${env}';

-- A lookup join needs a processing-time attribute on the probe side; meta
-- tables declare none, so a task-local view adds it.
CREATE TEMPORARY VIEW changed_products AS
SELECT product_id, changed_at, PROCTIME() AS proc_time
FROM ods.product_changes
WHERE change_type IN ('CREATE', 'UPDATE')
  AND product_id IS NOT NULL;

INSERT INTO dim_product
SELECT
  c.product_id,
  p.info.product_name,
  p.info.category_id,
  p.info.category_name,
  p.info.brand,
  p.info.list_price,
  c.changed_at AS updated_at
FROM changed_products AS c
JOIN ods.products FOR SYSTEM_TIME AS OF c.proc_time AS p
  ON p.rowkey = CAST(c.product_id AS STRING);
