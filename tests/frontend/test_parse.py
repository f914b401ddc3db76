"""The front-end reads every Dataphin construct of seed 000 into facts."""
import pytest

from flinkx_build.frontend.parse import parse_task_text


def parse_one(sql: str, **context):
    [chunk] = parse_task_text(sql, context)
    assert chunk.statement.syntax is None, chunk.statement.syntax
    return chunk.statement


@pytest.mark.parametrize(
    "sql, parts, kind, value",
    [
        ("SET kafkaTable.`properties.group.id` = 'new_group_id'", ["kafkaTable", "properties.group.id"], "literal", "new_group_id"),
        ("SET kafkaTable.`scan.startup.mode` = 'latest-offset'", ["kafkaTable", "scan.startup.mode"], "literal", "latest-offset"),
        ("SET hbase_output.bufferSize = 1000", ["hbase_output", "bufferSize"], "literal", "1000"),
        ("SET white_list.cache='ALL'", ["white_list", "cache"], "literal", "ALL"),
        ("SET white_list.cacheTTLMs=86400000", ["white_list", "cacheTTLMs"], "literal", "86400000"),
        ("SET my_dim_table.primarykey = 'field1'", ["my_dim_table", "primarykey"], "literal", "field1"),
        ("SET dim_table.index = 'field1'", ["dim_table", "index"], "literal", "field1"),
        ("SET kafka_table.topic.isHeader = true", ["kafka_table", "topic", "isHeader"], "literal", "true"),
        ("SET kafka_table.topic.isHeader = 'true'", ["kafka_table", "topic", "isHeader"], "literal", "true"),
        ("set xx_project.xx_table.accessId='xxxxxx'", ["xx_project", "xx_table", "accessId"], "literal", "xxxxxx"),
        ("SET xx_project.xx_table.tableType = 'MAX_COMPUTE'", ["xx_project", "xx_table", "tableType"], "literal", "MAX_COMPUTE"),
        ("SET proj.dimtable.dataphinColumnPruning='true'", ["proj", "dimtable", "dataphinColumnPruning"], "literal", "true"),
        ("set project.table.batch.startTime='2020-11-11 00:00:00'", ["project", "table", "batch", "startTime"], "literal", "2020-11-11 00:00:00"),
        ("set dwd_lux_trd_ord_subpay_mirror.`stream`.accessId='xxxxxx'", ["dwd_lux_trd_ord_subpay_mirror", "stream", "accessId"], "literal", "xxxxxx"),
        ("SET sls_stream.`watermark`= 'WATERMARK FOR ts AS withOffset(ts, 1000)'", ["sls_stream", "watermark"], "literal", "WATERMARK FOR ts AS withOffset(ts, 1000)"),
        ("SET sls_stream.`watermark`= WATERMARK FOR ts AS withOffset(ts, 1000)", ["sls_stream", "watermark"], "watermark", "WATERMARK FOR ts AS withOffset(ts, 1000)"),
    ],
)
def test_every_seed_set_form(sql, parts, kind, value):
    stmt = parse_one(sql)
    assert stmt.kind == "set_option"
    assert stmt.set_option.parts == parts
    assert stmt.set_option.value_kind == kind
    assert stmt.set_option.value == value


def test_computed_columns_single_and_multiple():
    single = parse_one("SET sls_stream.computedColumn= ts AS to_timestamp(c, 'yyyyMMddHHmmss')").set_option
    assert [(c.name, c.expression) for c in single.computed] == [("ts", "to_timestamp(c, 'yyyyMMddHHmmss')")]
    multi = parse_one(
        "SET sls_stream.computedColumn= ( ts1 AS to_timestamp(c, 'yyyyMMddHHmmss'), ts2 AS to_timestamp(d, 'yyyy-MM-dd HH:mm:ss') )"
    ).set_option
    assert [c.name for c in multi.computed] == ["ts1", "ts2"]
    assert multi.computed[1].expression == "to_timestamp(d, 'yyyy-MM-dd HH:mm:ss')"
    proc = parse_one("SET sls_stream.procTime= d AS PROCTIME()").set_option
    assert [(c.name, c.expression) for c in proc.computed] == [("d", "PROCTIME()")]


def test_flink_config_set_is_not_a_table_option():
    stmt = parse_one("SET 'table.exec.mini-batch.enabled' = 'true'")
    assert stmt.kind == "flink_set" and stmt.flink_set == ("table.exec.mini-batch.enabled", "true")


def test_cross_project_table_and_function_references():
    stmt = parse_one("CREATE VIEW my_view AS SELECT ${project_name}:MY_UDX(field1) FROM ${project_name}.input_table", project_name="dim")
    assert stmt.kind == "create_view" and stmt.defines == "my_view"
    [table] = stmt.tables
    assert table.parts == ["dim", "input_table"] and table.role == "read"
    [fn] = stmt.functions
    assert (fn.project, fn.name) == ("dim", "MY_UDX")
    # positions point at the source text, before `${...}` was rendered
    assert (fn.pos.line, fn.pos.col) == (1, 31)
    assert stmt.rendered[fn.span.start : fn.span.end] == "dim:MY_UDX"


def test_table_hints_attach_to_their_table():
    stmt = parse_one(
        "INSERT INTO table1 SELECT source_table.* FROM source_table "
        "JOIN dim_table/*+primarykey(id)*/ FOR SYSTEM_TIME AS OF PROCTIME() ON source_table.id = dim_table.id"
    )
    sink, source, dim = stmt.tables
    assert (sink.role, source.role, dim.role) == ("write", "read", "lookup")
    assert [i.name for h in dim.hints for i in h.items] == ["primarykey"]
    assert not source.hints and not sink.hints


def test_legacy_join_with_options():
    stmt = parse_one(
        "INSERT INTO table5 SELECT source_table.* FROM source_table "
        "JOIN dim_table WITH (UNIQUEINDEX = 'field2, field3') FOR SYSTEM_TIME AS OF PROCTIME() ON source_table.a = dim_table.a"
    )
    dim = stmt.tables[-1]
    assert dim.legacy_options == {"UNIQUEINDEX": "field2, field3"}
    assert dim.role == "lookup"


def test_sink_hint_dataphincolumns():
    stmt = parse_one("insert into hbase_sink/*+dataphincolumns(rowkey,family1.q1)*/ select key, ROW(f1q1) from src")
    sink = stmt.tables[0]
    assert sink.role == "write"
    assert sink.hints[0].items[0].args == ("rowkey", "family1.q1")


def test_syntax_error_is_positioned_in_the_file():
    chunks = parse_task_text("SELECT 1 FROM t;\n\nSELECT FROM WHERE;", {})
    problem = chunks[1].statement.syntax
    assert problem is not None and (problem.pos.line, problem.pos.col) == (3, 1)
    assert "Line 1" not in problem.message
