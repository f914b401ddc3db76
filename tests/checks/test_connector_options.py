"""FX420 unknown connector option, FX421 required connector option missing.

Every connector of flinkx_build/data/connector_options.json gets a passing table and a failing
one (a misspelt key, and each required option left out), through the real pipeline; then the
places a key can be written (YAML `with:`, SET, an OPTIONS hint), formats, engines, and the cases
the issue names (`SET t.\\`scan.startup.mod\\` = ...` on a kafka table).
"""
from __future__ import annotations

import json

import pytest

from flinkx_build.connectors import DATA
from flinkx_build.connectors import catalog
from tests.helpers import session_for

ENTRIES = json.loads(DATA.read_text(encoding="utf-8"))["connectors"]
SINK_ONLY = {"print", "blackhole"}
FORMAT_VALUES = {"format": "json", "key.format": "json", "value.format": "json"}


def good_options(name: str) -> dict[str, str]:
    """The connector's required options (the first of each group) and one optional key."""
    entry = ENTRIES[name]
    options = {"connector": name}
    for group in entry["required"]:
        options[group[0]] = FORMAT_VALUES.get(group[0], "x")
    optional = sorted(k for k in entry["optional"] if "#" not in k and k not in FORMAT_VALUES and k not in options)
    if optional:
        options[optional[0]] = "x"
    return options


def misspelt_key(name: str) -> tuple[str, str]:
    """(a key the connector does not have, the documented key it misspells)."""
    entry = ENTRIES[name]
    keys = sorted(k for k in entry["optional"] + [k for g in entry["required"] for k in g] if "#" not in k and len(k) > 6)
    if not keys:  # blackhole has no options at all: any key is unknown
        return "sink.parallelism", ""
    wanted = keys[0]
    return wanted[:-1], wanted


def table_yaml(name: str, options: dict[str, str]) -> str:
    lines = [f"name: t_{name.replace('-', '_').replace('.', '_')}", f"type: {name}", "columns:",
             "  - {name: id, type: BIGINT}", "primary_key: [id]", "with:"]
    lines += [f"  {key}: {json.dumps(value)}" for key, value in options.items()]
    return "\n".join(lines) + "\n"


def workspace_files(tables: dict[str, dict[str, str]]) -> dict[str, str]:
    files = {
        "projects/p/tables/src.yaml": "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n",
        "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: blackhole}\n",
    }
    for name, options in tables.items():
        table = f"t_{name.replace('-', '_').replace('.', '_')}"
        files[f"projects/p/tables/{table}.yaml"] = table_yaml(name, options)
        sql = f"INSERT INTO {table} SELECT id FROM src;\n" if name in SINK_ONLY else f"INSERT INTO snk SELECT id FROM {table};\n"
        files[f"projects/p/tasks/use_{table}.sql"] = sql
    return files


def findings(root) -> list:
    """Every FX42x finding of the workspace, as lint and build see them (load and task findings)."""
    session = session_for(root)
    found = [d for d in session.load_diagnostics if d.code.startswith("FX42")]
    for task in session.tasks():
        found += [d for d in session.analysed(task).diagnostics if d.code.startswith("FX42")]
    return sorted(set(found))


def yaml_line(text: str, key: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.strip().startswith(f"{key}:"))


@pytest.fixture(scope="module")
def module_ws(tmp_path_factory):
    from tests.conftest import write_tree

    def make(files: dict[str, str], name: str):
        return write_tree(tmp_path_factory.mktemp(name), {"flinkx.yaml": "engine: flink\n", **files})

    return make


@pytest.fixture(scope="module")
def passing(module_ws):
    return findings(module_ws(workspace_files({name: good_options(name) for name in ENTRIES}), "passing"))


@pytest.fixture(scope="module")
def misspelt(module_ws):
    tables = {}
    for name in ENTRIES:
        bad, _ = misspelt_key(name)
        tables[name] = {**good_options(name), bad: "x"}
    root = module_ws(workspace_files(tables), "misspelt")
    return root, findings(root)


@pytest.fixture(scope="module")
def missing(module_ws):
    tables = {}
    for name, entry in ENTRIES.items():
        if entry["required"]:
            options = good_options(name)
            del options[entry["required"][0][0]]
            tables[name] = options
    return findings(module_ws(workspace_files(tables), "missing"))


def test_the_table_covers_the_connectors_the_issue_names():
    names = set(catalog().connectors)
    assert {"kafka", "upsert-kafka", "jdbc", "mysql-cdc", "hbase-2.2", "datagen", "print", "blackhole", "filesystem"} <= names
    assert {"odps", "alihbase", "cloudhbase", "kafka010"} <= names  # seed 000's Blink-era types
    assert all(entry["source"] for entry in ENTRIES.values())


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_correct_table_passes(passing, name):
    table = f"t_{name.replace('-', '_').replace('.', '_')}"
    assert [d.format() for d in passing if d.path.endswith((f"/{table}.yaml", f"/use_{table}.sql")) or f"p.{table} " in d.message] == []


@pytest.mark.parametrize("name", sorted(ENTRIES))
def test_a_misspelt_key_is_reported_at_its_yaml_line(misspelt, name):
    root, found = misspelt
    table = f"t_{name.replace('-', '_').replace('.', '_')}"
    bad, meant = misspelt_key(name)
    text = (root / "projects/p/tables" / f"{table}.yaml").read_text()
    hits = [d for d in found if d.path.endswith(f"/{table}.yaml")]
    assert [(d.code, d.line) for d in hits] == [("FX420", yaml_line(text, bad))], [d.format() for d in hits]
    assert f"'{bad}'" in hits[0].message
    if meant:
        assert hits[0].hint == f"did you mean '{meant}'?"
    strict = ENTRIES[name]["strict"]
    assert hits[0].severity == ("error" if strict else "warning")


@pytest.mark.parametrize("name", sorted(n for n, e in ENTRIES.items() if e["required"]))
def test_a_missing_required_option_is_reported_in_the_task(missing, name):
    table = f"t_{name.replace('-', '_').replace('.', '_')}"
    group = ENTRIES[name]["required"][0]
    hits = [d for d in missing if f"p.{table} " in d.message]
    assert [d.code for d in hits] == ["FX421"], [d.format() for d in hits]
    assert hits[0].path.endswith(f"/use_{table}.sql") and hits[0].line == 1
    assert all(f"'{key}'" in hits[0].message for key in group)


KAFKA = """
name: orders
type: kafka
columns:
  - {name: id, type: BIGINT}
  - {name: ts, type: TIMESTAMP(3)}
with:
  connector: kafka
  topic: orders
  properties.bootstrap.servers: "${servers}"
  properties.group.id: g1
  format: json
"""
FILES = {
    "flinkx.yaml": "engine: flink\nvariables: {servers: 'k:9092'}\n",
    "projects/p/tables/orders.yaml": KAFKA,
    "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: blackhole}\n",
}


def lint_lines(cli, make_workspace, files: dict[str, str]) -> list[str]:
    root = make_workspace({**FILES, **files})
    result = cli("lint", str(root), cwd=root)
    return [line for line in result.stdout.splitlines() if " FX42" in line]


def test_the_issues_misspelt_set_gets_did_you_mean(cli, make_workspace):
    lines = lint_lines(cli, make_workspace, {"projects/p/tasks/t.sql": (
        "SET orders.`scan.startup.mod` = 'latest-offset';\n"
        "INSERT INTO snk SELECT id FROM orders;\n")})
    assert lines == ["projects/p/tasks/t.sql:1:1: FX420 unknown option 'scan.startup.mod' for p.orders "
                     "(kafka connector) (did you mean 'scan.startup.mode'?)"]


def test_correct_set_and_hint_keys_pass(cli, make_workspace):
    assert lint_lines(cli, make_workspace, {"projects/p/tasks/t.sql": (
        "SET orders.`scan.startup.mode` = 'latest-offset';\n"
        "SET orders.`properties.client.id` = 'c';\n"
        "SET orders.`json.ignore-parse-errors` = 'true';\n"
        "INSERT INTO snk SELECT id FROM orders /*+ OPTIONS('scan.startup.mode'='earliest-offset') */;\n")}) == []


def test_an_options_hint_key_is_reported_at_the_hint(cli, make_workspace):
    lines = lint_lines(cli, make_workspace, {"projects/p/tasks/t.sql": (
        "INSERT INTO snk\nSELECT id FROM orders /*+ OPTIONS('scan.startup.mod'='earliest-offset') */;\n")})
    assert lines == ["projects/p/tasks/t.sql:2:23: FX420 unknown option 'scan.startup.mod' for p.orders "
                     "(kafka connector) (did you mean 'scan.startup.mode'?)"]


def test_a_yaml_key_is_reported_once_however_many_tasks_use_the_table(cli, make_workspace):
    table = KAFKA.replace("  format: json\n", "  format: json\n  scan.startup.mod: latest-offset\n")
    tasks = {f"projects/p/tasks/t{i}.sql": "INSERT INTO snk SELECT id FROM orders;\n" for i in range(3)}
    lines = lint_lines(cli, make_workspace, {"projects/p/tables/orders.yaml": table, **tasks})
    assert lines == ["projects/p/tables/orders.yaml:12:21: FX420 unknown option 'scan.startup.mod' for p.orders "
                     "(kafka connector) (did you mean 'scan.startup.mode'?)"]


def test_a_table_no_task_uses_is_checked_and_lint_of_its_file_shows_it(cli, make_workspace):
    table = KAFKA.replace("  format: json\n", "  format: json\n  sink.delivery-guarante: at-least-once\n")
    root = make_workspace({**FILES, "projects/p/tables/orders.yaml": table})
    result = cli("lint", str(root), "projects/p/tables/orders.yaml", cwd=root)
    assert "projects/p/tables/orders.yaml:12:27: FX420 unknown option 'sink.delivery-guarante' for p.orders " \
           "(kafka connector) (did you mean 'sink.delivery-guarantee'?)" in result.stdout
    assert result.exit_code == 1


def test_build_stops_on_an_unknown_option(cli, make_workspace):
    root = make_workspace({**FILES, "projects/p/tasks/t.sql": (
        "SET orders.`scan.startup.mod` = 'latest-offset';\nINSERT INTO snk SELECT id FROM orders;\n")})
    result = cli("build", str(root), cwd=root)
    assert result.exit_code == 1
    assert "projects/p/tasks/t.sql:1:1: FX420" in result.stdout + result.stderr


@pytest.mark.parametrize(("extra", "bad"), [
    ("  value.format: json\n  value.json.ignore-parse-errors: 'true'\n  key.format: csv\n  key.csv.field-delimiter: ';'\n  key.fields: id\n", None),
    ("  value.json.ignore-parse-error: 'true'\n", "value.json.ignore-parse-error"),
    ("  csv.field-delimiter: ';'\n", "csv.field-delimiter"),  # the table's format is json
    ("  key.format: avro-confluent\n  key.fields: id\n  key.avro-confluent.url: x\n", None),  # a format not in the table: not checked
    ("  avro-confluent.url: x\n", "avro-confluent.url"),  # but the value's format is json
    ("  properties.sasl.mechanism: PLAIN\n  scan.watermark.idle-timeout: 1 s\n  source.parallelism: '4'\n", None),
])
def test_kafka_format_and_prefix_keys(cli, make_workspace, extra, bad):
    table = KAFKA.replace("  format: json\n", "  format: json\n" + extra)
    if "value.format" in extra:
        table = table.replace("  format: json\n", "", 1)
    lines = [line for line in lint_lines(cli, make_workspace, {"projects/p/tables/orders.yaml": table}) if "FX420" in line]
    assert [line.split("'")[1] for line in lines] == ([bad] if bad else [])


DATAGEN = "name: gen\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\n  - {name: name, type: STRING}\nwith:\n  connector: datagen\n"


@pytest.mark.parametrize(("extra", "bad"), [
    ("  fields.id.kind: sequence\n  fields.id.start: '1'\n  fields.id.end: '9'\n  fields.name.length: '5'\n  rows-per-second: '5'\n", None),
    ("  fields.nosuch.kind: random\n", "fields.nosuch.kind"),
    ("  fields.id.kindd: random\n", "fields.id.kindd"),
    ("  scan.watermark.idle-timeout: 1 s\n", "scan.watermark.idle-timeout"),  # datagen does not take the helper's options
])
def test_datagen_field_options_name_columns(cli, make_workspace, extra, bad):
    lines = [line for line in lint_lines(cli, make_workspace, {"projects/p/tables/gen.yaml": DATAGEN + extra}) if "FX420" in line]
    assert [line.split("'")[1] for line in lines] == ([bad] if bad else [])


def test_a_filesystem_format_key_flink_ignores_is_a_warning(cli, make_workspace):
    table = "name: arch\ntype: filesystem\ncolumns:\n  - {name: id, type: BIGINT}\nwith:\n  connector: filesystem\n  path: /tmp/x\n  format: json\n  json.ignore-parse-error: 'true'\n"
    lines = lint_lines(cli, make_workspace, {"projects/p/tables/arch.yaml": table})
    assert lines == ["projects/p/tables/arch.yaml:9:28: FX420 unknown format option 'json.ignore-parse-error' for p.arch "
                     "(filesystem connector): Flink ignores it (did you mean 'json.ignore-parse-errors'?)"]


def test_required_options_come_from_set_hints_and_secrets(cli, make_workspace):
    table = KAFKA.replace('  properties.bootstrap.servers: "${servers}"\n', "")
    tasks = {
        "projects/p/tasks/by_set.sql": "SET orders.`properties.bootstrap.servers` = '${servers}';\nINSERT INTO snk SELECT id FROM orders;\n",
        "projects/p/tasks/by_hint.sql": "INSERT INTO snk SELECT id FROM orders /*+ OPTIONS('properties.bootstrap.servers'='k:9092') */;\n",
        "projects/p/tasks/without.sql": "INSERT INTO snk SELECT id FROM orders;\nINSERT INTO snk SELECT id FROM orders;\n",
    }
    lines = lint_lines(cli, make_workspace, {"projects/p/tables/orders.yaml": table, **tasks})
    assert lines == ["projects/p/tasks/without.sql:1:32: FX421 p.orders (kafka connector) has no 'properties.bootstrap.servers': "
                     "the connector requires it (add 'properties.bootstrap.servers' under with: in projects/p/tables/orders.yaml, "
                     "or SET orders.`properties.bootstrap.servers` = '...' in this task)"]


def test_either_topic_or_topic_pattern(cli, make_workspace):
    pattern = KAFKA.replace("  topic: orders\n", "  topic-pattern: 'orders_.*'\n")
    assert lint_lines(cli, make_workspace, {"projects/p/tables/orders.yaml": pattern,
                                            "projects/p/tasks/t.sql": "INSERT INTO snk SELECT id FROM orders;\n"}) == []
    neither = KAFKA.replace("  topic: orders\n", "")
    lines = lint_lines(cli, make_workspace, {"projects/p/tables/orders.yaml": neither,
                                             "projects/p/tasks/t.sql": "INSERT INTO snk SELECT id FROM orders;\n"})
    assert [line.split(": FX421 ")[1].split(":")[0] for line in lines] == ["p.orders (kafka connector) has neither 'topic' nor 'topic-pattern'"]


def test_mirror_tables_are_checked_per_mode(cli, make_workspace):
    mirror = ("name: m\ntype: mirror\ncolumns:\n  - {name: id, type: BIGINT}\nwith:\n  format: json\n"
              "stream:\n  with:\n    connector: kafka\n    topic: t\n    properties.bootstrap.servers: k\n    scan.startup.mode: latest-offset\n"
              "batch:\n  with:\n    connector: filesystem\n    path: /tmp/x\n    scan.startup.mode: latest-offset\n")
    lines = lint_lines(cli, make_workspace, {"projects/p/tables/m.yaml": mirror})
    assert lines == ["projects/p/tables/m.yaml:17:24: FX420 unknown option 'scan.startup.mode' for p.m "
                     "(filesystem connector, batch mode) (remove it: Flink refuses options its connector does not have)"]


@pytest.mark.parametrize(("engine", "severity"), [("flink", "error"), ("mrs", "error"), ("vvr", "warning"), ("blink", "warning")])
def test_severity_follows_the_engine(make_workspace, engine, severity):
    table = KAFKA.replace("  format: json\n", "  format: json\n  scan.startup.mod: latest-offset\n")
    root = make_workspace({**FILES, "flinkx.yaml": f"engine: {engine}\nvariables: {{servers: 'k:9092'}}\n",
                           "projects/p/tables/orders.yaml": table})
    found = [d for d in session_for(root).load_diagnostics if d.code == "FX420"]
    assert [d.severity for d in found] == [severity]


def test_an_unknown_connector_is_not_checked(cli, make_workspace):
    table = "name: r\ntype: rds\ncolumns:\n  - {name: id, type: BIGINT}\nwith:\n  type: rds\n  tableNme: x\n  whatever: y\n"
    assert lint_lines(cli, make_workspace, {"projects/p/tables/r.yaml": table}) == []


def test_a_blink_type_reports_near_misses_only(cli, make_workspace):
    table = ("name: w\ntype: odps\nkind: offline\ncolumns:\n  - {name: id, type: BIGINT}\nwith:\n  type: odps\n  tableName: w\n"
             "  cacheTTLM: '1000'\n  tablename: w\n  batchSize: '100'\n")
    root = make_workspace({"flinkx.yaml": "engine: blink\n", "projects/p/tables/w.yaml": table})
    result = cli("lint", str(root), cwd=root)
    assert [line for line in result.stdout.splitlines() if "FX42" in line] == [
        "projects/p/tables/w.yaml:9:14: FX420 'cacheTTLM' is not a documented option of p.w (odps connector) (did you mean 'cacheTTLMs'?)"]
    assert result.exit_code == 0  # a warning


def test_a_misspelt_kafka_client_key_is_a_warning_with_the_client_setting_meant(cli, tmp_path):
    # issue 44 case 2: kafka hands properties.* to the Kafka client, which ignores `group.idd`: the group id
    # silently stays the meta table's. Flink accepts it, so a warning, not an error.
    from tests.helpers import edited_example
    from tests.helpers import one_verdict

    stats = "projects/dws/tasks/order_stats_1m.sql"
    ws = edited_example(tmp_path, [(stats, "`properties.group.id`", "`properties.group.idd`")])
    assert one_verdict(cli, ws) == [
        f"{stats}:9:1: FX420 'properties.group.idd' is not a Kafka client setting: the kafka connector hands it to the "
        "client, which ignores it, so dwd.dwd_orders keeps the setting it had (did you mean 'properties.group.id'?)"]
    assert cli("build", "--check", ".", cwd=ws).exit_code == 0


def test_kafka_client_keys_are_generated_with_their_source_and_only_near_misses_warn():
    from flinkx_build.connectors import catalog
    from flinkx_build.connectors import unknown_keys

    for name in ("kafka", "upsert-kafka"):
        spec = catalog().connectors[name]
        [(prefix, client)] = spec.client_prefixes
        assert prefix == "properties." and "gen_kafka_client_keys.py" in client.source
        assert {"group.id", "bootstrap.servers", "transaction.timeout.ms", "sasl.jaas.config"} <= client.options
        options = {"connector": name, "topic": "t", "format": "json"}
        written = ["properties.group.id", "properties.security.protocol", "properties.my.interceptor.setting",
                   "properties.enable.auto.commitx"]
        assert [(u.key, u.hint, u.refused) for u in unknown_keys(spec, options, written, [])] == [
            ("properties.enable.auto.commitx", "did you mean 'properties.enable.auto.commit'?", False)]
