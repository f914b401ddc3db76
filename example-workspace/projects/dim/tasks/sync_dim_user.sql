-- Keep the user dimension in the warehouse MySQL in step with the OLTP users
-- table: the mysql-cdc changelog of ods.users is upserted into dim_user
-- (jdbc, primary key user_id).
--
-- DATE_FORMAT below is NOT Flink's built-in: project dim defines its own
-- DATE_FORMAT (functions/date_format.yaml), and a bare function name resolves
-- to the current project's function first, then to the built-in.
-- dwd/tasks/orders/enrich_orders.sql makes the same bare call and gets the
-- built-in, because project dwd defines no DATE_FORMAT.

-- `dim_user` is both the jdbc dimension (stream) and the MaxCompute snapshot
-- (offline, tables/dim_user_offline.yaml). Without this SET the build stops:
--   FX132 Please assign a single type to the table dim_user using the syntax
--   SET XXX.XXX.tableType = 'XX'. Available types include: [JDBC, MAX_COMPUTE].
-- The bare form (current project); enrich_orders.sql uses ${dim_project}.dim_user.
SET dim_user.tableType = 'JDBC';

INSERT INTO dim_user
SELECT
  user_id,
  TRIM(user_name)                           AS user_name,
  phone,
  COALESCE(UPPER(gender), 'U')              AS gender,
  city,
  COALESCE(vip_level, 0)                    AS vip_level,
  DATE_FORMAT(register_time, 'yyyy-MM-dd')  AS register_date,
  updated_at
FROM ods.users;
