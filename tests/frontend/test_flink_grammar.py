"""The front-end parses what Flink parses: one case per Flink 1.20 job-statement form.

Each VALID statement must parse with flinkx's front-end (`parse_task_text`, the
`dataphin` dialect: no syntax problem, so no false FX120) AND with Flink 1.20's own
parser (validate's syntax pass, one JVM for the module). Flink is the oracle: a form
it rejects is not in VALID. BOTH_REJECT holds forms neither accepts.

The forms come from Flink 1.20's grammar (parserImpls.ftl: INSERT, CREATE TABLE/VIEW,
EXECUTE STATEMENT SET) and the query pages of its documentation (window TVFs and
aggregation, deduplication, Top-N, joins, OVER, MATCH_RECOGNIZE, set operations, ...).
"""
from __future__ import annotations

import pytest

from flinkx_build.frontend.parse import parse_task_text

_WINDOW = "TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES))"

VALID = {
    # --- window TVFs: positional, named arguments, SESSION with PARTITION BY ---
    "tumble_positional": f"SELECT window_start, window_end, SUM(price) FROM {_WINDOW} GROUP BY window_start, window_end",
    "tumble_offset": "SELECT * FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '10' MINUTES, INTERVAL '1' MINUTES))",
    "tumble_named": "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES))",
    "tumble_named_offset": "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SIZE => INTERVAL '10' MINUTES, `OFFSET` => INTERVAL '1' MINUTES))",
    "hop_named": "SELECT * FROM TABLE(HOP(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), SLIDE => INTERVAL '5' MINUTES, SIZE => INTERVAL '10' MINUTES))",
    "hop_positional": "SELECT window_start, SUM(price) FROM TABLE(HOP(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end",
    "cumulate_named": "SELECT * FROM TABLE(CUMULATE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(bidtime), STEP => INTERVAL '2' MINUTES, SIZE => INTERVAL '10' MINUTES))",
    "cumulate_positional": "SELECT window_start, window_end, SUM(price) FROM TABLE(CUMULATE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES, INTERVAL '10' MINUTES)) GROUP BY window_start, window_end",
    "session_partition_by": "SELECT window_start, window_end, item, SUM(price) FROM TABLE(SESSION(TABLE Bid PARTITION BY item, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES)) GROUP BY item, window_start, window_end",
    "session_partition_by_list": "SELECT * FROM TABLE(SESSION(TABLE Bid PARTITION BY (item, supplier_id), DESCRIPTOR(bidtime), INTERVAL '5' MINUTES))",
    "session_named": "SELECT * FROM TABLE(SESSION(DATA => TABLE Bid PARTITION BY item, TIMECOL => DESCRIPTOR(bidtime), GAP => INTERVAL '5' MINUTES))",
    "session_no_partition": "SELECT window_start, SUM(price) FROM TABLE(SESSION(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '5' MINUTES)) GROUP BY window_start, window_end",
    "window_tvf_into_sink": f"INSERT INTO sink SELECT * FROM {_WINDOW} WHERE price > 1",
    # --- grouping ---
    "grouping_sets": "SELECT supplier_id, rating, COUNT(*) AS total FROM (VALUES ('s1', 'p1', 4), ('s2', 'p3', 3)) AS Products(supplier_id, product_id, rating) GROUP BY GROUPING SETS ((supplier_id, rating), (supplier_id), ())",
    "rollup": "SELECT supplier_id, rating, COUNT(*) FROM Products GROUP BY ROLLUP (supplier_id, rating)",
    "cube": "SELECT GROUPING(a), GROUPING_ID(a, b), a, b FROM t GROUP BY CUBE (a, b)",
    "window_grouping_sets": f"SELECT window_start, window_end, supplier_id, SUM(price) FROM {_WINDOW} GROUP BY window_start, window_end, GROUPING SETS ((supplier_id), ())",
    "window_rollup": f"SELECT window_start, window_end, supplier_id, SUM(price) FROM {_WINDOW} GROUP BY window_start, window_end, ROLLUP (supplier_id, item)",
    "group_by_empty_set": "SELECT a, b FROM t GROUP BY a, b, ()",
    "group_by_distinct": "SELECT a FROM t GROUP BY DISTINCT a",
    "having_filter_distinct": "SELECT COUNT(DISTINCT order_id), SUM(amount) FILTER (WHERE amount > 10) FROM Orders GROUP BY users HAVING SUM(amount) > 50",
    "legacy_group_window": "SELECT TUMBLE_START(rowtime, INTERVAL '1' DAY) AS wStart, SUM(amount) FROM Orders GROUP BY TUMBLE(rowtime, INTERVAL '1' DAY), users",
    "legacy_hop_session": "SELECT HOP_END(rowtime, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE), SESSION_ROWTIME(rowtime, INTERVAL '1' HOUR), COUNT(*) FROM Orders GROUP BY HOP(rowtime, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE), SESSION(rowtime, INTERVAL '1' HOUR)",
    # --- deduplication, Top-N, window Top-N, window deduplication ---
    "deduplication": "SELECT order_id, order_time FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY order_id ORDER BY proctime ASC) AS row_num FROM Orders) WHERE row_num = 1",
    "top_n": "SELECT product_id, category, sales FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY category ORDER BY sales DESC) AS row_num FROM ShopSales) WHERE row_num <= 5",
    "window_top_n": f"SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY price DESC) AS rownum FROM (SELECT window_start, window_end, supplier_id, SUM(price) AS price FROM {_WINDOW} GROUP BY window_start, window_end, supplier_id)) WHERE rownum <= 3",
    "window_deduplication": f"SELECT * FROM (SELECT bidtime, price, window_start, window_end, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY bidtime DESC) AS rownum FROM {_WINDOW}) WHERE rownum <= 1",
    # --- joins ---
    "window_join": "SELECT L.num, R.num, COALESCE(L.window_start, R.window_start) AS window_start FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L FULL JOIN (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R ON L.num = R.num AND L.window_start = R.window_start AND L.window_end = R.window_end",
    "window_semi_join": "SELECT * FROM (SELECT * FROM TABLE(TUMBLE(TABLE LeftTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) L WHERE L.num IN (SELECT num FROM (SELECT * FROM TABLE(TUMBLE(TABLE RightTable, DESCRIPTOR(row_time), INTERVAL '5' MINUTES))) R WHERE L.window_start = R.window_start)",
    "interval_join": "SELECT * FROM Orders o, Shipments s WHERE o.id = s.order_id AND o.order_time BETWEEN s.ship_time - INTERVAL '4' HOUR AND s.ship_time",
    "temporal_join": "SELECT order_id, price, orders.currency, conversion_rate FROM orders LEFT JOIN currency_rates FOR SYSTEM_TIME AS OF orders.order_time ON orders.currency = currency_rates.currency",
    "lookup_join": "SELECT o.order_id, c.country FROM Orders AS o JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.customer_id = c.id",
    "lookup_join_hint": "SELECT /*+ LOOKUP('table'='Customers', 'retry-predicate'='lookup_miss', 'retry-strategy'='fixed_delay', 'fixed-delay'='10s', 'max-attempts'='3') */ o.order_id FROM Orders AS o JOIN Customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.customer_id = c.id",
    "time_travel": "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2023-07-31 00:00:00'",
    "time_travel_expression": "SELECT * FROM t FOR SYSTEM_TIME AS OF TIMESTAMP '2023-07-31 00:00:00' - INTERVAL '1' DAY",
    "outer_joins": "SELECT o.* FROM Orders o LEFT JOIN Products p ON o.pid = p.id RIGHT JOIN Users u ON o.uid = u.id FULL OUTER JOIN X x ON x.id = u.id",
    "natural_and_using": "SELECT * FROM t1 NATURAL JOIN t2 JOIN t3 USING (a, b)",
    "unnest": "SELECT order_id, tag FROM Orders CROSS JOIN UNNEST(tags) AS t (tag)",
    "unnest_with_ordinality": "SELECT users, tag, pos FROM Orders CROSS JOIN UNNEST(tags) WITH ORDINALITY AS t (tag, pos)",
    "lateral_table_comma": "SELECT order_id, res FROM Orders, LATERAL TABLE(table_func(order_id)) t(res)",
    "cross_join_lateral_table": "SELECT order_id, res FROM Orders CROSS JOIN LATERAL TABLE(split(order_id)) AS t(res)",
    "left_join_lateral_table": "SELECT order_id, res FROM Orders LEFT JOIN LATERAL TABLE(table_func(order_id)) AS t(res) ON TRUE",
    "left_join_lateral_subquery": "SELECT * FROM t1 LEFT JOIN LATERAL (SELECT * FROM t2 WHERE t2.a = t1.a) ON TRUE",
    # --- OVER aggregation ---
    "over_range": "SELECT order_id, SUM(amount) OVER (PARTITION BY product ORDER BY order_time RANGE BETWEEN INTERVAL '1' HOUR PRECEDING AND CURRENT ROW) AS s FROM Orders",
    "over_rows": "SELECT product, SUM(amount) OVER (PARTITION BY product ORDER BY order_time ROWS BETWEEN 10 PRECEDING AND CURRENT ROW) FROM Orders",
    "over_named_window": "SELECT product, SUM(amount) OVER w, AVG(amount) OVER w FROM Orders WINDOW w AS (PARTITION BY product ORDER BY order_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)",
    "lag_lead_rank": "SELECT LAG(a, 1) OVER (PARTITION BY k ORDER BY ts), LEAD(a) OVER (ORDER BY ts), RANK() OVER (ORDER BY ts), DENSE_RANK() OVER (ORDER BY ts) FROM t",
    # --- MATCH_RECOGNIZE ---
    "match_recognize": "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES START_ROW.rowtime AS start_tstamp, LAST(PRICE_DOWN.rowtime) AS bottom_tstamp ONE ROW PER MATCH AFTER MATCH SKIP TO LAST PRICE_UP PATTERN (START_ROW PRICE_DOWN+ PRICE_UP) DEFINE PRICE_DOWN AS (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1), PRICE_UP AS PRICE_UP.price > LAST(PRICE_DOWN.price, 1)) MR",
    "match_recognize_within": "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES FIRST(A.rowtime) AS s, AVG(A.price) AS p ONE ROW PER MATCH AFTER MATCH SKIP PAST LAST ROW PATTERN (A+ B) WITHIN INTERVAL '1' HOUR DEFINE A AS AVG(A.price) < 15)",
    "match_recognize_all_rows_subset": "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES A.price AS p ALL ROWS PER MATCH AFTER MATCH SKIP TO NEXT ROW PATTERN (A{2,} B*? C?? D{1,3}) SUBSET S = (A, B) DEFINE A AS A.price > 1, B AS B.price < 2) AS T",
    "match_recognize_quantified_group": "SELECT * FROM Ticker MATCH_RECOGNIZE (PARTITION BY symbol ORDER BY rowtime MEASURES FIRST(A.price, 1) AS p, MATCH_ROWTIME() AS t PATTERN (A (B C)+ (D | E)) DEFINE A AS A.price > PREV(A.price), B AS B.price < NEXT(B.price, 1))",
    # --- INSERT ---
    "insert_overwrite_static_partition": "INSERT OVERWRITE country_page_view PARTITION (`date`='2019-8-30', country='China') SELECT `user`, cnt FROM page_view_source",
    "insert_partition_and_columns": "INSERT INTO country_page_view PARTITION (`date`='2019-8-30') (`user`, cnt) SELECT `user`, cnt FROM page_view_source",
    "insert_overwrite": "INSERT OVERWRITE sink SELECT a, b FROM t",
    "insert_column_list": "INSERT INTO country_page_view (`user`, cnt) SELECT `user`, cnt FROM page_view_source",
    "insert_values": "INSERT INTO students VALUES ('fred flintstone', 35, 1.28), ('barney rubble', 32, 2.32)",
    "insert_sink_hint": "INSERT INTO t /*+ OPTIONS('sink.parallelism'='2') */ SELECT * FROM s",
    "execute_insert": "EXECUTE INSERT INTO a SELECT * FROM b",
    # --- CREATE TABLE / VIEW ---
    "create_table_lower_case_comment": "CREATE TABLE Orders (`user` BIGINT NOT NULl comment 'this is primary key', ts TIMESTAMP(3) comment 'notice: watermark', ptime AS PROCTIME() comment 'computed', m STRING METADATA FROM 'topic' VIRTUAL comment 'meta', PRIMARY KEY(`user`) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '1' SECONDS) comment 'orders' with ('connector' = 'datagen')",
    "create_table_column_primary_key": "CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED, b INT) WITH ('connector' = 'datagen')",
    "create_table_types": "CREATE TABLE t (a ARRAY<INT>, b MAP<STRING, BIGINT>, c ROW<x INT, y STRING>, d MULTISET<INT>, e TIMESTAMP(3) WITH LOCAL TIME ZONE, f TIMESTAMP_LTZ(3), g DECIMAL(38, 18), h BYTES, i BINARY(3), k TIME(3), o DOUBLE PRECISION, s INT NOT NULL) WITH ('connector' = 'datagen')",
    "create_table_distributed": "CREATE TABLE t (a INT, b INT) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS WITH ('connector' = 'datagen')",
    "create_table_partitioned": "CREATE TABLE IF NOT EXISTS cat.db.t (a INT, dt STRING) PARTITIONED BY (dt) WITH ('connector' = 'filesystem', 'path' = '/tmp', 'format' = 'csv')",
    "create_table_source_watermark": "CREATE TEMPORARY TABLE t (a INT, ts TIMESTAMP(3), WATERMARK FOR ts AS SOURCE_WATERMARK()) WITH ('connector' = 'datagen')",
    "create_table_like_options": "CREATE TABLE derived_table (a INT) WITH ('connector' = 'datagen') LIKE base_table (OVERWRITING WATERMARKS OVERWRITING OPTIONS EXCLUDING PARTITIONS)",
    "create_table_watermark_only_like": "CREATE TABLE Orders_with_watermark (WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND) WITH ('scan.startup.mode' = 'latest-offset') LIKE Orders",
    "create_table_distributed_into": "CREATE TABLE t (a INT) DISTRIBUTED INTO 4 BUCKETS WITH ('connector' = 'datagen')",
    # --- found by sweeping Flink 1.20's documentation (filesystem.md, show.md, joins.md, sql_functions.yml) ---
    "metadata_column_not_null": "CREATE TABLE t (a STRING NOT NULL METADATA, b STRING NULL METADATA FROM 'k' VIRTUAL, c INT) WITH ('connector' = 'datagen')",
    "table_constraint_quoted_name": "CREATE TABLE t (a INT, CONSTRAINT `pk` PRIMARY KEY (a) NOT ENFORCED) WITH ('connector' = 'datagen')",
    "empty_with": "CREATE TABLE t (a INT) WITH (/* set by the catalog */)",
    "between_symmetric": "SELECT a BETWEEN SYMMETRIC b AND c, a NOT BETWEEN ASYMMETRIC b AND c FROM t",
    "overlaps_in_select": "SELECT (a, b) OVERLAPS (c, d) AS o FROM t",
    "overlaps_in_where": "SELECT a FROM t WHERE (a, b) OVERLAPS (c, d) AND a > b",
    "period_predicates": "SELECT (a, b) CONTAINS c, (a, b) EQUALS (c, d), (a, b) PRECEDES (c, d), (a, b) IMMEDIATELY SUCCEEDS (c, d) FROM t",
    "set_configuration_unquoted_with_dashes": "SET table.exec.mini-batch.enabled = true",
    "substring_overlay_position_with_columns": "SELECT SUBSTRING(s FROM p FOR n + 1), OVERLAY(s PLACING 'x' FROM p FOR n), POSITION('a' IN s FROM p) FROM t",
    "cascading_window_view": "CREATE TEMPORARY VIEW window1 AS SELECT window_start, window_end, window_time AS rowtime, SUM(price) AS partial_price FROM TABLE(TUMBLE(TABLE Bid, DESCRIPTOR(bidtime), INTERVAL '2' MINUTES)) GROUP BY supplier_id, window_start, window_end, window_time",
    "ctas": "CREATE TABLE my_ctas_table WITH ('connector' = 'kafka') AS SELECT id, name, age FROM source_table WHERE mod(id, 10) = 0",
    "ctas_with_columns_and_key": "CREATE TABLE my_ctas_table (desc STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'kafka') AS SELECT id, name, age FROM source_table",
    "rtas": "CREATE OR REPLACE TABLE my_rtas_table WITH ('connector' = 'kafka') AS SELECT id, name, age FROM source_table",
    "create_view_columns": "CREATE VIEW v (a, b) AS SELECT x, y FROM t",
    "create_temporary_view": "CREATE TEMPORARY VIEW IF NOT EXISTS v AS SELECT x FROM t",
    # --- queries: VALUES, set operations, ORDER BY / LIMIT / OFFSET FETCH, CTEs ---
    "values": "VALUES (1, 2), (3, 4)",
    "values_row": "VALUES ROW(1, 2), ROW(3, -4)",
    "union_order_limit": "SELECT a FROM t UNION ALL SELECT a FROM u ORDER BY a LIMIT 1",
    "insert_union": "INSERT INTO t SELECT a FROM u UNION ALL SELECT a FROM v",
    "values_alias": "SELECT * FROM (VALUES (1, 2), (1, 3)) AS t1 (a, b)",
    "union": "(SELECT s FROM t1) UNION (SELECT s FROM t2)",
    "union_all": "SELECT s FROM t1 UNION ALL SELECT s FROM t2",
    "intersect_except": "(SELECT s FROM t1) INTERSECT (SELECT s FROM t2) EXCEPT ALL (SELECT s FROM t3)",
    "in_exists": "SELECT * FROM Orders WHERE product IN (SELECT product FROM NewProducts) AND EXISTS (SELECT 1 FROM X WHERE X.p = Orders.product)",
    "quantified_comparison": "SELECT a FROM t WHERE a > ALL (SELECT b FROM u) OR a = SOME (SELECT b FROM u) OR a = ANY (SELECT b FROM u)",
    "order_by_limit": "SELECT * FROM Orders ORDER BY order_time DESC NULLS LAST, order_id LIMIT 3",
    "offset_fetch": "SELECT * FROM Orders ORDER BY order_time OFFSET 5 ROWS FETCH NEXT 10 ROWS ONLY",
    "limit_offset": "SELECT * FROM Orders LIMIT 10 OFFSET 5",
    "with_ctes": "WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT * FROM b",
    "select_distinct": "SELECT DISTINCT id FROM Orders",
    "options_hint": "SELECT * FROM Orders /*+ OPTIONS('scan.startup.mode'='earliest-offset') */",
    # --- expressions ---
    "interval_qualifiers": "SELECT INTERVAL '1 10' DAY TO HOUR, INTERVAL '1-2' YEAR TO MONTH, INTERVAL '10:20' MINUTE TO SECOND, INTERVAL '1 10:20:30.123' DAY TO SECOND(3), INTERVAL '10' SECOND(2, 3) FROM t",
    "like_escape_similar": "SELECT a FROM t WHERE b LIKE 'x!_%' ESCAPE '!' AND c NOT LIKE '%y%' AND a SIMILAR TO 'x%'",
    "json_value_returning": "SELECT JSON_VALUE('{\"a\": 1}', '$.a' RETURNING INT), JSON_VALUE(j, 'lax $.b' RETURNING DOUBLE NULL ON EMPTY DEFAULT 0.0 ON ERROR) FROM t",
    "json_object_array": "SELECT JSON_OBJECT(KEY 'a' VALUE b, 'c' VALUE d NULL ON NULL), JSON_ARRAY(1, 'x' ABSENT ON NULL), JSON_OBJECT(), JSON(j) FROM t",
    "json_aggregates": "SELECT JSON_ARRAYAGG(a ABSENT ON NULL), JSON_OBJECTAGG(KEY k VALUE v NULL ON NULL) FROM t GROUP BY g",
    "json_exists_query_is_json": "SELECT JSON_EXISTS(j, '$.a' FALSE ON ERROR), JSON_QUERY(j, '$.a' WITH CONDITIONAL ARRAY WRAPPER), JSON_STRING(a) FROM t WHERE j IS JSON OBJECT AND k IS NOT JSON",
    "json_query_returning": "SELECT JSON_QUERY(j, '$.a' RETURNING ARRAY<STRING> WITHOUT ARRAY WRAPPER NULL ON EMPTY EMPTY ARRAY ON ERROR) FROM t",
    "cast_try_cast": "SELECT CAST(a AS BIGINT), TRY_CAST(b AS INT), CAST(c AS DECIMAL(10, 2)), CAST(e AS ROW<x INT, y STRING>), CAST(x AS ARRAY<INT>), CAST(z AS TIMESTAMP(3) WITH LOCAL TIME ZONE), CAST(z AS TIMESTAMP_LTZ(3)) FROM t",
    "aggregate_all": "SELECT COUNT(1), COUNT(ALL a), SUM(ALL b) FROM t",
    "collection_type_suffix": "SELECT CAST(x AS INT ARRAY), CAST(y AS VARCHAR(10) MULTISET) FROM t",
    "trim_substring_position_forms": "SELECT TRIM(TRAILING FROM s), TRIM(' ' FROM s), SUBSTRING(s FROM 2), POSITION('a' IN s FROM 2) FROM t",
    "case": "SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END, CASE b WHEN 1 THEN 'one' ELSE 'many' END FROM t",
    "is_distinct_from": "SELECT a FROM t WHERE a IS DISTINCT FROM b AND c IS NOT DISTINCT FROM d AND e IS NOT UNKNOWN",
    "timestampdiff_extract": "SELECT TIMESTAMPDIFF(DAY, ts1, ts2), TIMESTAMPADD(HOUR, 2, ts1), EXTRACT(YEAR FROM ts1), EXTRACT(DOW FROM ts1), EXTRACT(MILLISECOND FROM ts1) FROM t",
    "string_call_syntax": "SELECT POSITION('a' IN s), TRIM(BOTH ' ' FROM s), TRIM(LEADING 'x' FROM s), OVERLAY(s PLACING 'abc' FROM 2 FOR 3), SUBSTRING(s FROM 1 FOR 2), SUBSTRING(s, 1, 2) FROM t",
    "ceil_floor_to_unit": "SELECT CEIL(ts TO HOUR), FLOOR(ts TO DAY), CEIL(1.5), FLOOR(x) FROM t",
    "datetime_literals": "SELECT DATE '2020-01-01', TIME '12:00:00', TIMESTAMP '2020-01-01 12:00:00.123' FROM t",
    "constructors": "SELECT ARRAY[1, 2, 3], MAP['k1', 1, 'k2', 2], ROW(1, 'a'), (1, 'a') FROM t",
    "item_and_field_access": "SELECT t.arr[1], t.m['key'], t.r.f, t.arr[1].f, ARRAY[ROW(1, 'a')][1], (t.r).f FROM t",
    "bare_time_functions": "SELECT CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, NOW(), PROCTIME(), CURRENT_WATERMARK(ts) FROM t",
    "within_group": "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY a) FROM t",
    "literals": "SELECT x'ff', 1e3, 1.5, -2, TRUE, FALSE, NULL, UNKNOWN, 'It''s', U&'\\0041' FROM t",
    "row_value_in": "SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, 4))",
    "backslash_is_a_plain_character": "SELECT SPLIT_INDEX(a, '\\', 0), REGEXP_REPLACE(a, '\\d+', 'x') FROM t WHERE b LIKE '%\\_%' ESCAPE '\\'",
    "bare_user_is_a_column": "SELECT user, SUM(amount) FROM Orders WHERE user > 0 GROUP BY user",
    "names_flink_does_not_reserve": "SELECT desc, `if`, ignore, respect FROM t AS desc",
    "quoted_reserved_names": "SELECT `timestamp`, `value`, `partition`, t.`user`, `user`.name FROM t AS `user`",
}

# Forms Flink 1.20's parser rejects, and so does flinkx (no false "clean").
BOTH_REJECT = {
    "insert_into_table_keyword": "INSERT INTO TABLE t SELECT * FROM s",
    "bare_offset_named_argument": "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '1' MINUTES, OFFSET => INTERVAL '1' MINUTES))",
    "plural_week_interval": "SELECT a FROM t WHERE ts > x - INTERVAL '1' WEEKS",
    "missing_from_source": "SELECT a FROM",
    "qualify": "SELECT a, ROW_NUMBER() OVER (ORDER BY a) AS rn FROM t QUALIFY rn = 1",
    "backslash_does_not_escape_a_quote": "SELECT 'It\\'s' FROM t",
}

# A reserved word that stops the parse: (statement, word, line, col of the word). Flink
# rejects each at that word and accepts it quoted; flinkx reports FX01 there
# (tests/frontend/test_reserved_stop.py).
RESERVED_STOPS = {
    "select_partition": ("SELECT partition AS src_partition FROM t", "partition", 1, 8),
    "select_timestamp": ("SELECT id, timestamp FROM t", "timestamp", 1, 12),
    "where_value_and_time": ("SELECT a FROM t\nWHERE time > 1", "time", 2, 7),
    "qualified_user": ("SELECT t.user FROM t", "user", 1, 10),
    "column_definition_user": ("CREATE TABLE t (user STRING, b INT) WITH ('connector' = 'datagen')", "user", 1, 17),
    "group_by_partition": ("SELECT a FROM t GROUP BY partition", "partition", 1, 26),
    "partition_key_date": ("INSERT OVERWRITE t PARTITION (date='2019-8-30') SELECT a FROM s", "date", 1, 31),
    "table_alias_time": ("SELECT x FROM t AS time", "time", 1, 20),
    "alias_user": ("SELECT a AS user FROM t", "user", 1, 13),
}

# Parsed by the dialect, rejected by rule FX01 (tests/frontend/test_reserved_stop.py).
_FX01_REJECTS = {"bare_offset_named_argument"}

# The EXECUTE spelling of a statement set: flinkx splits it into its statements.
STATEMENT_SETS = {
    "execute_statement_set": "EXECUTE STATEMENT SET\nBEGIN\n  INSERT INTO a SELECT * FROM b;\n  INSERT INTO c SELECT * FROM d;\nEND",
    "begin_statement_set": "BEGIN STATEMENT SET;\nINSERT INTO a SELECT * FROM b;\nINSERT INTO c SELECT * FROM d;\nEND",
}


def flinkx_problems(sql: str) -> list:
    return [c.statement.syntax for c in parse_task_text(sql, {}) if c.statement.syntax is not None]


@pytest.mark.parametrize("sql", [pytest.param(s, id=k) for k, s in {**VALID, **STATEMENT_SETS}.items()])
def test_flinkx_parses_it(sql):
    assert flinkx_problems(sql) == []


@pytest.mark.parametrize("sql", [pytest.param(s, id=k) for k, s in BOTH_REJECT.items() if k not in _FX01_REJECTS])
def test_flinkx_rejects_it(sql):
    assert flinkx_problems(sql) != []


@pytest.mark.parametrize("name", list(STATEMENT_SETS))
def test_statement_set_spellings_split_alike(name):
    kinds = [(c.chunk.kind, c.statement.kind) for c in parse_task_text(STATEMENT_SETS[name], {})]
    assert kinds == [("begin_statement_set", "begin_statement_set"), ("statement", "insert"),
                     ("statement", "insert"), ("end", "end")]


def test_splitter_reads_strings_like_flink():
    # '\' is one backslash, so the `;` after it ends the statement
    chunks = parse_task_text("SELECT SPLIT_INDEX(a, '\\', 0) FROM t;\nSELECT 2 FROM t", {})
    assert [c.chunk.text for c in chunks] == ["SELECT SPLIT_INDEX(a, '\\', 0) FROM t", "SELECT 2 FROM t"]
    assert [c.statement.syntax for c in chunks] == [None, None]


def test_execute_statement_set_on_one_line_keeps_positions():
    chunks = parse_task_text("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT x FROM b; END;", {})
    assert [(c.chunk.kind, c.chunk.line, c.chunk.col) for c in chunks] == [
        ("begin_statement_set", 1, 1), ("statement", 1, 29), ("end", 1, 60)]
    assert chunks[1].statement.tables[0].pos.col == 41  # `a`, in file coordinates


def test_execute_insert_is_the_insert():
    [chunk] = parse_task_text("EXECUTE INSERT INTO a SELECT x FROM b", {})
    assert chunk.statement.kind == "insert" and chunk.chunk.text == "INSERT INTO a SELECT x FROM b"
    assert [(t.name, t.role) for t in chunk.statement.tables] == [("a", "write"), ("b", "read")]


def test_named_argument_tvf_reads_its_table():
    [chunk] = parse_task_text(VALID["tumble_named"], {})
    assert [(t.name, t.role) for t in chunk.statement.tables] == [("Bid", "read")]


def test_insert_partition_keys_are_not_read_columns():
    [chunk] = parse_task_text(VALID["insert_overwrite_static_partition"], {})
    assert [(t.name, t.role) for t in chunk.statement.tables] == [("country_page_view", "write"), ("page_view_source", "read")]
    assert ["date"] not in [c.parts for c in chunk.statement.columns]


def test_enough_forms():
    assert len(VALID) + len(STATEMENT_SETS) >= 60


# --- the oracle: Flink 1.20's own parser, one JVM for the module --------------------------



@pytest.mark.flink
@pytest.mark.parametrize("sql", [pytest.param(s, id=k) for k, s in VALID.items()])
def test_flink_parses_it(flink, sql):
    assert flink.parse_only(sql) is None


@pytest.mark.flink
@pytest.mark.parametrize("name", list(STATEMENT_SETS))
def test_flink_parses_the_statement_set(flink, name):
    sql = STATEMENT_SETS[name]
    # EXECUTE STATEMENT SET ... END is one statement to Flink; BEGIN STATEMENT SET; ... END
    # is a script of statements (the SQL client's form), each parsed on its own.
    statements = [sql] if sql.startswith("EXECUTE") else [s.strip() for s in sql.split(";")]
    assert [flink.parse_only(s) for s in statements] == [None] * len(statements)


@pytest.mark.flink
@pytest.mark.parametrize("sql", [pytest.param(s, id=k) for k, s in BOTH_REJECT.items()])
def test_flink_rejects_it(flink, sql):
    assert flink.parse_only(sql) is not None


@pytest.mark.flink
@pytest.mark.parametrize("sql, word, line, col", [pytest.param(*v, id=k) for k, v in RESERVED_STOPS.items()])
def test_flink_stops_at_the_same_word(flink, sql, word, line, col):
    lines = sql.split("\n")
    at = lines[line - 1]
    flink_line, flink_col, _ = flink.parse_only(sql)
    # at the word, or at the `.` that joins it to its qualifier (`t.user`)
    assert flink_line == line and at[flink_col - 1 : col - 1] in ("", ".")
    lines[line - 1] = at[: col - 1] + f"`{word}`" + at[col - 1 + len(word):]
    assert flink.parse_only("\n".join(lines)) is None


_JOIN = "SELECT {hint} t1.a FROM t1 JOIN t2 ON t1.a = t2.a"


@pytest.mark.flink
def test_flink_wants_a_comma_between_hints_as_flinkx_does(flink):
    from flinkx_build.frontend.hints import parse_hint

    for hint, accepted in [("/*+ BROADCAST(t1) SHUFFLE_HASH(t1) */", False), ("/*+ BROADCAST(t1), SHUFFLE_HASH(t1) */", True)]:
        assert (flink.parse_only(_JOIN.format(hint=hint)) is None) == accepted
        assert (parse_hint(hint).error is None) == accepted
