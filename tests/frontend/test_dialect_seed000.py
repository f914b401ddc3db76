"""Seed 000, "Use UpdateStatement and TableHints ..." to the end: one test per rule,
built from the seed's own examples, checking the compiled SQL."""
from __future__ import annotations

import pytest

from tests.helpers import compile_task
from tests.helpers import squash
from tests.helpers import task_errors

KAFKA_TABLE = """
    # seed 000, "Override Kafka consumer group and scan offset at task level"
    type: kafka
    columns:
      - {name: user_id, type: BIGINT}
      - {name: item_id, type: BIGINT}
      - {name: category_id, type: BIGINT}
      - {name: behavior, type: STRING}
      - {name: topic, type: STRING}
      - {name: partition, type: BIGINT}
    with:
      connector: kafka
      topic: my_excellent_topic
      properties.bootstrap.servers: "mykafka:9092"
      properties.group.id: my_excellent_group
      format: csv
      scan.startup.mode: earliest-offset
"""
HBASE_OUTPUT = """
    # seed 000, "Override buffer size for an HBase sink table at task level" (the seed's Blink
    # alihbase table has bufferSize; Flink's hbase-2.2 calls it sink.buffer-flush.max-rows)
    type: hbase
    columns:
      - {name: rk, type: VARCHAR}
      - {name: rk1, type: VARCHAR}
      - {name: rk2, type: VARCHAR}
      - {name: f, type: BIGINT}
    primary_key: [rk]
    with: {connector: hbase-2.2, table-name: blink_hbase_test, zookeeper.quorum: "zk:2181", sink.buffer-flush.max-rows: "500"}
"""
WHITE_LIST = """
    # seed 000, "Set cache strategy for a MaxCompute dimension table at task level"
    type: odps
    columns:
      - {name: id, type: VARCHAR}
      - {name: name, type: VARCHAR}
      - {name: age, type: INT}
    primary_key: [id]
    with:
      connector: odps
      endPoint: your_end_point_name
      project: your_project_name
      tableName: your_table_name
      accessId: your_access_id
      accessKey: your_access_key
      partition: ds=20180905
      cache: ALL
"""
SLS_STREAM = """
    # seed 000, "Set WATERMARK" / "Set computed columns"
    type: sls
    columns:
      - {name: a, type: INT}
      - {name: b, type: BIGINT}
      - {name: c, type: VARCHAR}
      - {name: d, type: VARCHAR}
      - {name: ts, type: "TIMESTAMP(3)"}
    with: {connector: sls, project: p, logstore: l}
"""
SINK = """
    type: print
    columns:
      - {name: a, type: INT}
      - {name: b, type: BIGINT}
    with: {connector: print}
"""


@pytest.fixture
def ws(make_workspace):
    def make(task_sql: str, engine: str = "flink", extra: dict | None = None, dataphin: str = "3.7"):
        files = {
            "flinkx.yaml": f"engine: {engine}\ndataphin_version: '{dataphin}'\n",
            "projects/p/tables/kafkaTable.yaml": KAFKA_TABLE,
            "projects/p/tables/hbase_output.yaml": HBASE_OUTPUT,
            "projects/p/tables/white_list.yaml": WHITE_LIST,
            "projects/p/tables/sls_stream.yaml": SLS_STREAM,
            "projects/p/tables/sink.yaml": SINK,
            "projects/p/tasks/t.sql": task_sql,
            **(extra or {}),
        }
        return make_workspace(files)

    return make


# 1. SET [proj.]tbl.option = value, backticked option names
def test_set_overrides_meta_table_options(ws):
    root = ws(
        "SET kafkaTable.`properties.group.id` = 'new_group_id';\n"
        "SET kafkaTable.`scan.startup.mode` = 'latest-offset';\n"
        "SET p.hbase_output.`sink.buffer-flush.max-rows` = 1000;\n"
        "SET white_list.cache='ALL';\nSET white_list.cacheTTLMs=86400000;\n"
        "INSERT INTO hbase_output SELECT behavior, behavior, behavior, user_id FROM kafkaTable;\n"
        "SELECT w.name FROM kafkaTable k JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON k.behavior = w.id;\n"
    )
    sql = squash(compile_task(root, "p/t"))
    assert "'properties.group.id' = 'new_group_id'" in sql
    assert "'scan.startup.mode' = 'latest-offset'" in sql
    assert "'sink.buffer-flush.max-rows' = '1000'" in sql
    assert "'cacheTTLMs' = '86400000'" in sql
    assert "SET " not in sql  # Dataphin SETs are consumed by the build


# 2. watermark: quoted (3.7+) / unquoted (3.6); withOffset -> INTERVAL
@pytest.mark.parametrize(
    "version, statement",
    [
        ("3.7", "SET sls_stream.`watermark`= 'WATERMARK FOR ts AS withOffset(ts, 1000)';"),
        ("3.6", "SET sls_stream.`watermark`= WATERMARK FOR ts AS withOffset(ts, 1000);"),
    ],
)
def test_watermark_forms_by_dataphin_version(ws, version, statement):
    root = ws(statement + "\nINSERT INTO sink SELECT a, b FROM sls_stream;\n", dataphin=version)
    sql = squash(compile_task(root, "p/t"))
    assert "WATERMARK FOR ts AS ts - INTERVAL '1' SECOND" in sql


@pytest.mark.parametrize(
    "version, statement",
    [
        ("3.6", "SET sls_stream.`watermark`= 'WATERMARK FOR ts AS withOffset(ts, 1000)';"),
        ("3.7", "SET sls_stream.`watermark`= WATERMARK FOR ts AS withOffset(ts, 1000);"),
    ],
)
def test_watermark_form_must_match_the_version(ws, version, statement):
    root = ws(statement + "\nINSERT INTO sink SELECT a, b FROM sls_stream;\n", dataphin=version)
    [error] = task_errors(root, "p/t")
    assert f"FX03 dataphin_version {version}" in error
    assert error.split(": ")[0].endswith("t.sql:1:29")


@pytest.mark.parametrize("millis, interval", [("1000", "'1'"), ("1500", "'1.5'"), ("250", "'0.25'"), ("60000", "'60'")])
def test_with_offset_is_exact_for_any_millisecond_count(ws, millis, interval):
    root = ws(f"SET sls_stream.`watermark` = 'WATERMARK FOR ts AS withOffset(ts, {millis})';\nINSERT INTO sink SELECT a, b FROM sls_stream;\n")
    assert f"ts - INTERVAL {interval} SECOND" in compile_task(root, "p/t")


def test_with_offset_stays_for_blink(ws):
    root = ws("SET sls_stream.`watermark` = 'WATERMARK FOR ts AS withOffset(ts, 1000)';\nINSERT INTO sink SELECT a, b FROM sls_stream;\n", engine="blink")
    assert "WATERMARK FOR ts AS withOffset(ts, 1000)" in compile_task(root, "p/t")


# 3. computed columns and procTime
def test_computed_columns_and_proctime(ws):
    root = ws(
        "SET sls_stream.computedColumn= ( ts1 AS to_timestamp(c, 'yyyyMMddHHmmss'), ts2 AS to_timestamp(d, 'yyyy-MM-dd HH:mm:ss') );\n"
        "SET sls_stream.procTime= pt AS PROCTIME();\n"
        "INSERT INTO sink SELECT a, b FROM sls_stream;\n"
    )
    sql = squash(compile_task(root, "p/t"))
    assert "ts1 AS to_timestamp(c, 'yyyyMMddHHmmss'), ts2 AS to_timestamp(d, 'yyyy-MM-dd HH:mm:ss'), pt AS PROCTIME()" in sql


def test_single_computed_column(ws):
    root = ws("SET sls_stream.computedColumn= ts_c AS to_timestamp(c, 'yyyyMMddHHmmss');\nINSERT INTO sink SELECT a, b FROM sls_stream;\n")
    assert "ts_c AS to_timestamp(c, 'yyyyMMddHHmmss')" in compile_task(root, "p/t")


# 4. primarykey / index / uniqueindex by SET
def test_set_primary_key(ws):
    root = ws("SET white_list.primarykey = 'id, name';\nSELECT w.age FROM kafkaTable k JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON k.behavior = w.id;\n")
    assert "PRIMARY KEY (id, name) NOT ENFORCED" in compile_task(root, "p/t")


def test_set_index_and_unique_index_on_blink(ws):
    root = ws("SET white_list.index = 'name';\nSET white_list.uniqueindex = 'id, age';\nSELECT w.age FROM kafkaTable k JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON k.behavior = w.id;\n", engine="blink")
    sql = squash(compile_task(root, "p/t"))
    assert "INDEX (name)" in sql and "UNIQUE INDEX (id, age)" in sql


def test_index_is_an_error_on_open_source_flink(ws):
    root = ws("SET white_list.index = 'name';\nSELECT 1 FROM white_list;\n")
    [error] = task_errors(root, "p/t")
    assert "FX170" in error and "engine 'flink'" in error


# 5. isHeader
@pytest.mark.parametrize("value", ["true", "'true'"])
def test_is_header_becomes_metadata_virtual(ws, value):
    root = ws(f"SET kafkaTable.topic.isHeader = {value};\nSELECT topic FROM kafkaTable;\n")
    assert "topic STRING METADATA VIRTUAL" in compile_task(root, "p/t")


def test_is_header_is_header_on_blink(ws):
    root = ws("SET kafkaTable.topic.isHeader = true;\nSELECT topic FROM kafkaTable;\n", engine="blink")
    assert "topic STRING HEADER" in compile_task(root, "p/t")


def test_is_header_must_name_a_metadata_key(ws):
    root = ws("SET kafkaTable.behavior.isHeader = true;\nSELECT behavior FROM kafkaTable;\n")
    [error] = task_errors(root, "p/t")
    assert "FX151 'behavior' is not a metadata key of the kafka connector" in error


def test_header_columns_are_left_out_of_sink_inserts(ws):
    root = ws("SET kafkaTable.topic.isHeader = true;\nSET kafkaTable.`partition`.isHeader = true;\nINSERT INTO kafkaTable SELECT user_id, item_id, category_id, behavior FROM kafkaTable;\n")
    sql = compile_task(root, "p/t")
    assert "`partition` BIGINT METADATA VIRTUAL" in sql


# 6. tableType and the stream/offline conflict
CONFLICT = {
    "projects/p/tables/rt_stream.yaml": "name: adi_ae_matrix_rt_slr_prim_cate\ntype: hbase\nkind: stream\ncolumns: [{name: k, type: STRING}]\nwith: {connector: hbase-2.2}\n",
    "projects/p/tables/rt_offline.yaml": "name: adi_ae_matrix_rt_slr_prim_cate\ntype: odps\nkind: offline\ncolumns: [{name: k, type: STRING}]\nwith: {connector: odps}\n",
}


def test_stream_offline_conflict_is_the_seeds_precompilation_error(ws):
    root = ws("-- uses the table\n\nSELECT k FROM adi_ae_matrix_rt_slr_prim_cate;\n", extra=CONFLICT)
    [error] = task_errors(root, "p/t")
    assert error.endswith(
        "t.sql:3:15: FX132 Please assign a single type to the table adi_ae_matrix_rt_slr_prim_cate using the syntax "
        "SET XXX.XXX.tableType = 'XX'. Available types include: [CLOUD_HBASE, MAX_COMPUTE]."
    )


@pytest.mark.parametrize("choice, connector", [("MAX_COMPUTE", "odps"), ("odps", "odps"), ("CLOUD_HBASE", "hbase-2.2")])
def test_table_type_picks_one(ws, choice, connector):
    root = ws(f"SET p.adi_ae_matrix_rt_slr_prim_cate.tableType = '{choice}';\nSELECT k FROM adi_ae_matrix_rt_slr_prim_cate;\n", extra=CONFLICT)
    assert f"'connector' = '{connector}'" in compile_task(root, "p/t")


# 7. dataphinColumnPruning on a dimension table
def test_column_pruning_keeps_used_and_key_columns(ws):
    root = ws(
        "SET p.white_list.dataphinColumnPruning='true';\n"
        "INSERT INTO sink SELECT w.age, k.user_id FROM kafkaTable AS k JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON k.behavior = w.id;\n"
    )
    sql = squash(compile_task(root, "p/t"))
    assert "CREATE TEMPORARY TABLE white_list ( id VARCHAR, age INT, PRIMARY KEY (id) NOT ENFORCED )" in sql


# 8. mirror tables: stream/batch blocks and SET tbl.`stream`.key / tbl.batch.key
MIRROR = {
    "projects/p/tables/mirror.yaml": """
        name: dwd_lux_trd_ord_subpay_mirror
        type: mirror
        columns: [{name: k, type: STRING}]
        with: {connector: mirror}
        stream: {with: {connector: kafka, topic: subpay}}
        batch: {with: {connector: odps, tableName: subpay}}
    """,
}


def test_mirror_table_by_mode(ws):
    # seed 000 sets a TimeTunnel accessId here; on Kafka that is no option (FX420) and a literal
    # credential (FX480), so a Kafka option stands in for it: the mode logic is the same
    task = (
        "set dwd_lux_trd_ord_subpay_mirror.`stream`.`properties.group.id`='stream_id';\n"
        "set p.dwd_lux_trd_ord_subpay_mirror.batch.startTime='2020-11-11 00:00:00';\n"
        "SELECT k FROM dwd_lux_trd_ord_subpay_mirror;\n"
    )
    root = ws(task, extra=MIRROR)
    stream = compile_task(root, "p/t", mode="stream")
    batch = compile_task(root, "p/t", mode="batch")
    assert "'topic' = 'subpay'" in stream and "'properties.group.id' = 'stream_id'" in stream and "startTime" not in stream
    assert "'tableName' = 'subpay'" in batch and "'startTime' = '2020-11-11 00:00:00'" in batch and "properties.group.id" not in batch


# 9. TableHints: OPTIONS stays; key hints change the DDL; dataphincolumns crops HBase sinks
def test_options_hint_is_kept_for_flink(ws):
    root = ws("SELECT behavior FROM kafkaTable /*+ OPTIONS('scan.startup.mode'='latest-offset') */;\n")
    assert "FROM kafkaTable /*+ OPTIONS('scan.startup.mode'='latest-offset') */" in compile_task(root, "p/t")


def test_primarykey_hint_sets_the_key_for_its_query(ws):
    root = ws(
        "INSERT INTO sink SELECT w.age, k.user_id FROM kafkaTable k JOIN white_list/*+primarykey(name)*/ FOR SYSTEM_TIME AS OF PROCTIME() AS w ON k.behavior = w.`name`;\n"
        "INSERT INTO sink SELECT w.age, k.user_id FROM kafkaTable k JOIN white_list FOR SYSTEM_TIME AS OF PROCTIME() AS w ON k.behavior = w.id;\n"
    )
    sql = squash(compile_task(root, "p/t"))
    assert "CREATE TEMPORARY TABLE white_list ( id VARCHAR, name VARCHAR, age INT, PRIMARY KEY (name) NOT ENFORCED )" in sql
    assert "CREATE TEMPORARY TABLE white_list__2 ( id VARCHAR, name VARCHAR, age INT, PRIMARY KEY (id) NOT ENFORCED )" in sql
    assert "JOIN white_list FOR SYSTEM_TIME" in sql and "JOIN white_list__2 FOR SYSTEM_TIME" in sql
    assert "primarykey" not in sql.split("rebuild.")[1]


def test_dataphincolumns_crops_hbase_sink(ws):
    extra = {
        "projects/p/tables/hbase_sink.yaml": """
            type: hbase
            columns:
              - {name: rowkey, type: INT}
              - {name: family1, type: "ROW<q1 INT>"}
              - {name: family2, type: "ROW<q2 STRING, q3 BIGINT>"}
            with: {connector: cloudhbase, table-name: t, zookeeper.quorum: zk}
        """,
    }
    root = ws(
        "insert into hbase_sink/*+dataphincolumns(rowkey,family2.q2,family2.q3)*/\nselect a, ROW(c, b) from sls_stream;\n"
        "insert into hbase_sink/*+dataphincolumns(rowkey,family1.q1)*/\nselect a, ROW(a) from sls_stream;\n",
        extra=extra,
    )
    sql = squash(compile_task(root, "p/t"))
    assert "CREATE TEMPORARY TABLE hbase_sink ( rowkey INT, family2 ROW<q2 STRING, q3 BIGINT> )" in sql
    assert "CREATE TEMPORARY TABLE hbase_sink__2 ( rowkey INT, family1 ROW<q1 INT> )" in sql
    assert "dataphincolumns" not in sql.split("rebuild.")[1]


def test_dataphincolumns_only_for_hbase(ws):
    root = ws("insert into sink/*+dataphincolumns(a)*/ select a, b from sls_stream;\n")
    [error] = task_errors(root, "p/t")
    assert "FX152 dataphincolumns applies only to HBase sink tables" in error


# 11. locked options
@pytest.mark.parametrize(
    "statement, option",
    [
        ("SET white_list.tableName = 'other';", "tableName"),
        ("SET white_list.project = 'other';", "project"),
        ("SET kafkaTable.connector = 'datagen';", "connector"),
    ],
)
def test_locked_options_cannot_be_set(ws, statement, option):
    root = ws(statement + "\nSELECT 1 FROM white_list;\n")
    [error] = task_errors(root, "p/t")
    assert f":1:1: FX160 option '{option}'" in error


def test_yaml_locked_list_and_hint(ws):
    table = KAFKA_TABLE + "    locked: [topic]\n"
    root = ws("SELECT behavior FROM kafkaTable /*+ OPTIONS('topic'='other') */;\n", extra={"projects/p/tables/kafkaTable.yaml": table})
    [error] = task_errors(root, "p/t")
    assert "FX160 option 'topic' of p.kafkaTable cannot be overridden" in error


# 12. engines
def test_blink_backticks_reserved_option_keys(ws):
    # seed 000's blink demo: `group.id` = '...', bootstrap.servers = '...'
    table = "type: kafka010\ncolumns: [{name: message, type: VARBINARY}]\nwith: {type: kafka010, group.id: g, bootstrap.servers: 'ip1:port1', partition: ds=1}\n"
    root = ws("SELECT message FROM kafka_table;\n", engine="blink", extra={"projects/p/tables/kafka_table.yaml": table})
    sql = squash(compile_task(root, "p/t"))
    assert "type = 'kafka010', `group.id` = 'g', bootstrap.servers = 'ip1:port1', `partition` = 'ds=1'" in sql
    assert "-- Target: Alibaba Blink, stream mode." in compile_task(root, "p/t")


def test_blink_legacy_syntax(ws):
    root = ws("INSERT INTO hbase_output SELECT behavior, behavior, behavior, user_id FROM kafkaTable;\n", engine="blink")
    sql = squash(compile_task(root, "p/t"))
    assert "CREATE TABLE hbase_output ( rk VARCHAR, rk1 VARCHAR, rk2 VARCHAR, f BIGINT, PRIMARY KEY (rk) ) WITH ( connector = 'hbase-2.2'" in sql


def test_mrs_hints_need_the_mrs_engine(ws):
    task = "INSERT INTO sink SELECT /*+ DISTRIBUTEBY(a) */ a, b FROM sls_stream;\n"
    [error] = task_errors(ws(task), "p/t")
    assert "FX170 the DISTRIBUTEBY hint needs the mrs engine; engine 'flink'" in error
    assert "DISTRIBUTEBY(a)" in compile_task(ws(task, engine="mrs"), "p/t")


def test_functions_in_computed_columns_get_flink_names(ws):
    extra = {
        "projects/dim/functions/mask_phone.yaml": "class: com.shop.MaskPhone\nreturns: STRING\n",
        "projects/p/functions/DATE_FORMAT.yaml": "class: com.shop.DateFormat\nreturns: STRING\n",
    }
    root = ws("SET sls_stream.computedColumn = (m AS dim:mask_phone(c), d AS DATE_FORMAT(ts, 'yyyy'));\nINSERT INTO sink SELECT a, b FROM sls_stream;\n", extra=extra)
    sql = squash(compile_task(root, "p/t"))
    assert "m AS mask_phone(c), d AS p_date_format(ts, 'yyyy')" in sql
    assert "CREATE TEMPORARY FUNCTION mask_phone AS 'com.shop.MaskPhone' LANGUAGE JAVA" in sql
    assert "CREATE TEMPORARY FUNCTION p_date_format AS 'com.shop.DateFormat' LANGUAGE JAVA" in sql


# 12. engines: vvr is Ververica Flink (same SQL as Apache Flink); mrs has seed 003's extensions
def test_vvr_compiles_like_flink(ws):
    task = "SET kafkaTable.topic.isHeader = true;\nSELECT topic FROM kafkaTable;\n"
    assert compile_task(ws(task, engine="vvr"), "p/t") .split("rebuild.")[1] == compile_task(ws(task), "p/t").split("rebuild.")[1]


LD_SINK = {
    "projects/p/tables/LD_SINK.yaml": """
        # seed 003: the late-data sink has the window's input fields plus the window bounds
        type: print
        columns:
          - {name: a, type: INT}
          - {name: b, type: BIGINT}
          - {name: ts, type: "TIMESTAMP(3)"}
          - {name: windowStart, type: "TIMESTAMP(3)"}
          - {name: windowEnd, type: "TIMESTAMP(3)"}
        with: {connector: print}
    """,
}
LATE_TASK = (
    "SET sls_stream.`watermark` = 'WATERMARK FOR ts AS withOffset(ts, 1000)';\n"
    "INSERT INTO sink SELECT /*+ LATE_DATA_SINK('sink.name'='LD_SINK', 'window.start.field'='windowStart', 'window.end.field'='{end}') */\n"
    "  MIN(a), COUNT(DISTINCT b)\nFROM TABLE(TUMBLE(TABLE sls_stream, DESCRIPTOR(ts), INTERVAL '5' SECOND))\nGROUP BY window_start, window_end;\n"
)


def test_mrs_late_data_sink_brings_its_table(ws):
    sql = squash(compile_task(ws(LATE_TASK.format(end="windowEnd"), engine="mrs", extra=LD_SINK), "p/t"))
    assert "CREATE TEMPORARY TABLE LD_SINK ( a INT, b BIGINT, ts TIMESTAMP(3), windowStart TIMESTAMP(3), windowEnd TIMESTAMP(3) )" in sql
    assert "/*+ LATE_DATA_SINK('sink.name'='LD_SINK', 'window.start.field'='windowStart', 'window.end.field'='windowEnd') */" in sql


def test_mrs_late_data_sink_window_fields_must_be_timestamps(ws):
    errors = task_errors(ws(LATE_TASK.format(end="b"), engine="mrs", extra=LD_SINK), "p/t")
    assert any("FX151 window.end.field 'b' is BIGINT, not a TIMESTAMP, in the late-data sink p.LD_SINK" in e for e in errors)


def test_mrs_late_data_sink_must_hold_the_window_input_fields(ws):
    # seed 003: "The fields of the sink must be the same as the input data of the window"
    sink = LD_SINK["projects/p/tables/LD_SINK.yaml"].replace("          - {name: ts, type: \"TIMESTAMP(3)\"}\n", "          - {name: c, type: VARCHAR}\n")
    errors = task_errors(ws(LATE_TASK.format(end="windowEnd"), engine="mrs", extra={"projects/p/tables/LD_SINK.yaml": sink}), "p/t")
    assert any("FX151 the late-data sink p.LD_SINK must hold the window's input fields: missing ts; not an input c" in e for e in errors), errors


def test_source_parallelism_is_mrs_only(ws):
    task = "SET kafkaTable.`source.parallelism` = '2';\nINSERT INTO kafkaTable SELECT /*+ DISTRIBUTEBY('user_id') */ * FROM kafkaTable;\n"
    assert "'source.parallelism' = '2'" in compile_task(ws(task, engine="mrs"), "p/t")
    errors = task_errors(ws("SET kafkaTable.`source.parallelism` = '2';\nSELECT user_id FROM kafkaTable;\n"), "p/t")
    assert any(":1:1: FX170 'source.parallelism' of p.kafkaTable needs the mrs engine" in e for e in errors)


@pytest.mark.parametrize(
    "version, statement",
    [
        ("3.7", "SET sls_stream.`watermark` = 'WATERMARK FOR ts AS withOffset(p:fix_ts(ts), 1000)';"),
        ("3.6", "SET sls_stream.`watermark` = WATERMARK FOR ts AS withOffset(p:fix_ts(ts), 1000);"),
    ],
)
def test_functions_in_a_watermark_resolve_like_anywhere(ws, version, statement):
    extra = {"projects/p/functions/fix_ts.yaml": "class: com.shop.FixTs\nreturns: TIMESTAMP(3)\n"}
    sql = squash(compile_task(ws(statement + "\nINSERT INTO sink SELECT a, b FROM sls_stream;\n", dataphin=version, extra=extra), "p/t"))
    assert "WATERMARK FOR ts AS fix_ts(ts) - INTERVAL '1' SECOND" in sql
    assert "CREATE TEMPORARY FUNCTION fix_ts AS 'com.shop.FixTs' LANGUAGE JAVA" in sql
    broken = ws(statement.replace("p:fix_ts", "p:fix_tz") + "\nINSERT INTO sink SELECT a, b FROM sls_stream;\n", dataphin=version, extra=extra)
    [error] = task_errors(broken, "p/t")
    assert ":1:" in error and "FX140 function 'fix_tz' not found in project 'p' (did you mean 'fix_ts'?)" in error
