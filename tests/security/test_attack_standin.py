"""Issue 41, items 3 and 4: a workspace cannot take a table off flinkx's stand-in, nor write flinkx's own options.

Before the fix, `ALTER TABLE t SET ('connector' = 'filesystem', 'path' = ...)` followed by `ALTER TABLE t RESET`
of the `flinkx.*` keys made the planner plan a filesystem source of the task's choosing (on 1.20's PyFlink,
`python-input-format` opened it), and an OPTIONS hint setting `flinkx.fixture-rows` made `flinkx test` pass a
broken task; lint said nothing, and FX420 was silent for connectors without an option list (hologres).
"""
from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from flinkx_build.child_process import java_tool
from flinkx_build.planner import jars
from flinkx_build.planner.jar import driver_jar
from flinkx_build.planner.session import open_planner
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.conftest import write_tree
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

RESERVED = "is an option flinkx reserves for its stand-ins (flinkx.*): a workspace may not write it"
RESERVED_HINT = "(remove it: flinkx sets its own options on its stand-ins, a workspace never does)"
CONNECTOR_HINT = "(choose the connector where the table is defined (its meta table's type and with:, or the CREATE TABLE))"

TASK = """\
SET src.`flinkx.fixture-rows` = '[]';
CREATE TEMPORARY TABLE t (id BIGINT) WITH ('connector' = 'datagen', 'flinkx.original-connector' = 'x');
ALTER TABLE t SET ('connector' = 'filesystem', 'path' = '/proc/self/fd/0');
ALTER TABLE t RESET ('flinkx.source-changelog');
INSERT INTO snk SELECT id FROM src /*+ OPTIONS('flinkx.fixture-rows' = '[]') */;
INSERT INTO sn2 SELECT id FROM t /*+ OPTIONS('connector' = 'filesystem') */;
"""


def hostile_workspace(root: Path) -> Path:
    return write_tree(root, {
        "flinkx.yaml": "engine: flink\n", "projects/p/project.yaml": "name: p\n",
        # hologres: a connector flinkx has no option list for, so FX420 never looked at its keys
        "projects/p/tables/src.yaml": "name: src\ntype: hologres\ncolumns:\n  - {name: id, type: BIGINT}\n"
                                      "with:\n  connector: hologres\n  flinkx.source-changelog: all\n",
        "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\n"
                                      "with: {connector: blackhole}\n",
        # a second sink: two INSERTs into one table outside a statement set are FX474, another finding
        "projects/p/tables/sn2.yaml": "name: sn2\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\n"
                                      "with: {connector: blackhole}\n",
        "projects/p/tasks/t.sql": TASK,
    })


def test_every_write_of_a_reserved_option_or_a_connector_swap_is_one_fx197_at_its_token(tmp_path):
    ws = hostile_workspace(tmp_path / "ws")
    expected = [
        f"projects/p/tables/src.yaml:7:28: FX197 'flinkx.source-changelog' {RESERVED} {RESERVED_HINT}",
        f"projects/p/tasks/t.sql:1:1: FX197 'flinkx.fixture-rows' {RESERVED} {RESERVED_HINT}",
        f"projects/p/tasks/t.sql:2:69: FX197 'flinkx.original-connector' {RESERVED} {RESERVED_HINT}",
        f"projects/p/tasks/t.sql:4:22: FX197 'flinkx.source-changelog' {RESERVED} {RESERVED_HINT}",
        f"projects/p/tasks/t.sql:5:36: FX197 'flinkx.fixture-rows' {RESERVED} {RESERVED_HINT}",
        "projects/p/tasks/t.sql:6:34: FX197 an OPTIONS hint may not change 'connector': a table's connector is chosen "
        f"where the table is defined {CONNECTOR_HINT}",
    ]
    for command in (["lint"], ["build", "--check"]):
        done = subprocess.run([sys.executable, "-m", "flinkx_build", *command, "--no-planner", "."], cwd=ws,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 1, (command, done.stderr)
        assert sorted(done.stdout.splitlines()) == sorted(expected), command


def _script(*statements: str) -> ScriptToValidate:
    return ScriptToValidate("p/t", "t.sql", tuple(CompiledStatement(sql, i + 1, 1, "other", (i + 1, 1))
                                                  for i, sql in enumerate(statements)))


@needs_planner("1.20")
@needs_planner("2.3")
@pytest.mark.parametrize("version", ["1.20", "2.3"])
def test_the_driver_never_plans_a_table_off_its_stand_in(version, jars_23):  # noqa: F811
    """flinkx's FX197 bypassed: each statement handed to the planner driver directly. The reset of flinkx's options
    and the hints are refused on Flink's own parse; the INSERT that follows still plans against the stand-in."""
    script = _script(
        "CREATE TABLE t (a STRING) WITH ('connector' = 'datagen')",
        "CREATE TEMPORARY TABLE s (a STRING) WITH ('connector' = 'blackhole')",
        "ALTER TABLE t SET ('connector' = 'filesystem', 'path' = '/proc/self/fd/0')",
        "ALTER TABLE t RESET ('flinkx.original-connector', 'flinkx.sink-changelog', 'flinkx.source-changelog')",
        "INSERT INTO s SELECT a FROM t /*+ OPTIONS('connector' = 'filesystem', 'path' = '/etc', 'format' = 'raw') */",
        "INSERT INTO s SELECT a FROM t /*+ OPTIONS('flinkx.source-changelog' = 'all') */",
        "CREATE TEMPORARY TABLE u (a STRING) WITH ('connector' = 'datagen', 'flinkx.original-connector' = 'x')",
        "INSERT INTO s SELECT a FROM t",
    )
    with open_planner(version, fetch=True) as planner:
        findings = planner.validate(script)
    # the ALTER that swaps the connector is Flink SQL Flink accepts: the driver puts t back on the stand-in, so the
    # last INSERT plans (on the filesystem connector it would fail: "Missing required options are: format")
    assert [(f.statement_index, f.message) for f in findings] == [
        (3, "'flinkx.original-connector' is an option flinkx reserves for its stand-ins: a workspace may not write it"),
        (4, "an OPTIONS hint may not change a table's connector ('connector')"),
        (5, "'flinkx.source-changelog' is an option flinkx reserves for its stand-ins: a workspace may not write it"),
        (6, "'flinkx.original-connector' is an option flinkx reserves for its stand-ins: a workspace may not write it"),
    ]


def _test(steps: list[dict], tables: dict) -> dict:
    return {"test": {"mode": "stream", "prefix": "s:", "config": {}, "timeout_ms": 120_000, "steps": steps, "tables": tables}}


@needs_planner("1.20")
@needs_planner("2.3")
@pytest.mark.parametrize("version", ["1.20", "2.3"])
def test_a_test_job_refuses_a_hint_that_forges_its_fixture_rows(version, jars_23):  # noqa: F811
    tables = {"src": json.dumps([{"a": 1}]), "snk": "[]"}
    steps = [{"table": "CREATE TABLE src (a INT) WITH ('connector' = 'kafka')"},
             {"table": "CREATE TABLE snk (a INT) WITH ('connector' = 'kafka')"}]
    with open_planner(version, fetch=True) as driver:
        forged = driver.ask(_test(steps + [{"insert": "INSERT INTO snk SELECT a FROM src "
                                                      "/*+ OPTIONS('flinkx.fixture-rows' = '[]') */"}], tables), 300)
        honest = driver.ask(_test(steps + [{"insert": "INSERT INTO snk SELECT a FROM src"}], tables), 300)
    assert forged.get("refused") == "'flinkx.fixture-rows' is an option flinkx reserves for its stand-ins: a workspace may not write it"
    assert "refused" not in honest and "collected" in honest, honest  # the same case without the hint runs


REAPPLY = """
import java.util.Map;
import org.apache.flink.table.api.*;
public class Reapply {
    public static void main(String[] args) throws Exception {
        TableEnvironment tenv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        // a table on another connector, made past every refusal (the Table API, not SQL)
        tenv.createTemporaryTable("t", TableDescriptor.forConnector("filesystem").schema(
                Schema.newBuilder().column("a", DataTypes.STRING()).build()).option("path", "/etc").format("raw").build());
        tenv.executeSql("CREATE TABLE p (a STRING) WITH ('connector' = 'datagen')");
        tenv.executeSql("ALTER TABLE p SET ('connector' = 'filesystem', 'path' = '/etc', 'format' = 'raw')");
        Class<?> guard = Class.forName("flinkx.planner.StatementGuard");
        java.lang.reflect.Method reapply = null;
        for (java.lang.reflect.Method m : guard.getDeclaredMethods()) {
            if (m.getName().equals("reapply")) { reapply = m; }
        }
        reapply.setAccessible(true);
        java.util.function.UnaryOperator<Map<String, String>> swap = options -> {
            Map<String, String> swapped = new java.util.HashMap<>(options);
            swapped.put("connector", "flinkx-planning");
            return swapped;
        };
        reapply.invoke(null, tenv, swap, "flinkx-planning");
        System.out.println(tenv.executeSql("SHOW CREATE TABLE t").collect().next().getField(0).toString().contains("'connector' = 'flinkx-planning'"));
        System.out.println(tenv.executeSql("SHOW CREATE TABLE p").collect().next().getField(0).toString().contains("'connector' = 'flinkx-planning'"));
    }
}
"""


@needs_planner("1.20")
def test_every_table_is_put_back_on_the_stand_in_after_a_statement(tmp_path):
    """The invariant behind the refusals (StatementGuard.reapply, run after every statement the driver plans): a
    table that is on another connector, however it got there, a temporary one and a catalog one, is swapped back."""
    target = TARGETS["1.20"]
    lib = jars.installed_lib(target)
    assert lib is not None
    jar = driver_jar(target, lib, java_tool("javac"))
    (tmp_path / "Reapply.java").write_text(REAPPLY, encoding="utf-8")
    classpath = f"{jar}:{lib}/*"
    subprocess.run([java_tool("javac"), "-cp", classpath, "-d", str(tmp_path), str(tmp_path / "Reapply.java")],
                   check=True, capture_output=True, timeout=300)
    done = subprocess.run([java_tool("java"), "-cp", f"{tmp_path}:{classpath}", "Reapply"], capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.split() == ["true", "true"], done.stderr[-2000:]
    with zipfile.ZipFile(jar) as zf:  # the class the driver runs, not a copy of it
        assert "flinkx/planner/StatementGuard.class" in zf.namelist()
