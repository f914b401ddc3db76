"""FX408 arithmetic on a string or a boolean (issue 44 case 16), held to each target's planner: every expression
it reports, Flink rejects; arithmetic Flink takes stays quiet."""
from __future__ import annotations

import pytest

from flinkx_build.planner.session import open_planner
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.helpers import edited_example
from tests.helpers import one_verdict
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

COLUMNS = {"txt": "STRING", "chr": "CHAR(3)", "num": "INT", "big": "BIGINT", "amt": "DECIMAL(10, 2)", "dbl": "DOUBLE",
           "flag": "BOOLEAN"}
# expression -> whether FX408 reports it
EXPRESSIONS = {"txt * num": True, "num * txt": True, "txt + amt": True, "amt - txt": True, "txt / big": True, "txt * dbl": True,
               "-txt": True, "txt % num": True, "chr * num": True, "txt + txt": True, "txt * 1.5": True, "flag * num": True,
               "num - flag": True, "num * amt": False, "big / dbl": False, "amt % num": False, "-num": False,
               "CAST(txt AS INT) * num": False, "txt || txt": False}
TABLES = {"projects/p/project.yaml": "name: p\n",
          "projects/p/tables/t.yaml": "name: t\ntype: kafka\nkind: stream\ncolumns:\n"
          + "".join(f"  - {{name: {n}, type: \"{t}\"}}\n" for n, t in COLUMNS.items())
          + "with: {connector: kafka, topic: t, properties.bootstrap.servers: 'k:9092', format: json}\n",
          "projects/p/tables/sink.yaml": "name: sink\ntype: print\nkind: stream\ncolumns:\n  - {name: x, type: STRING}\nwith: {connector: print}\n"}


def _task(expression: str) -> str:
    return f"INSERT INTO sink\nSELECT CAST({expression} AS STRING) FROM t;\n"


@pytest.mark.parametrize("expression", list(EXPRESSIONS))
def test_fx408_reports_exactly_the_arithmetic_it_should(cli, make_workspace, expression):
    ws = make_workspace({**TABLES, "projects/p/tasks/a.sql": _task(expression)})
    codes = [line.split(": ")[1].split()[0] for line in cli("lint", ".", cwd=ws).stdout.splitlines() if ": FX" in line]
    assert codes == (["FX408"] if EXPRESSIONS[expression] else []), codes


@pytest.mark.flink
@pytest.mark.network
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_planner(v)) for v in TARGETS])
def test_every_target_rejects_what_fx408_reports_and_plans_the_rest(jars_23, version):
    ddl = ("CREATE TEMPORARY TABLE t (" + ", ".join(f"{n} {t}" for n, t in COLUMNS.items()) + ") WITH ('connector' = 'kafka')",
           "CREATE TEMPORARY TABLE sink (x STRING) WITH ('connector' = 'print')")
    planner = open_planner(version, fetch=False)
    try:
        verdicts = {}
        for expression in EXPRESSIONS:
            sql = (*ddl, f"INSERT INTO sink SELECT CAST({expression} AS STRING) FROM t")
            statements = tuple(CompiledStatement(text, 1 + 2 * i, 1, "other", (1 + 2 * i, 1)) for i, text in enumerate(sql))
            verdicts[expression] = bool(planner.validate(ScriptToValidate("p/a", "a.sql", statements)))
    finally:
        planner.close()
    assert verdicts == EXPRESSIONS


def test_a_kafka_column_retyped_to_string_breaks_the_arithmetic_of_a_task(cli, tmp_path):
    # case 16: peek_order_events computes quantity * unit_price; the planner rejected it, the fast checks were silent
    ws = edited_example(tmp_path, [("projects/ods/tables/kafka_orders.yaml", "{name: quantity, type: INT", "{name: quantity, type: STRING")])
    peek = "projects/ods/tasks/debug/peek_order_events.sql"
    assert f"{peek}:33:8: FX408 * takes numbers, and quantity is STRING: Flink has no * for it (convert it to a number " \
           "first: CAST(quantity AS INT))" in one_verdict(cli, ws)


def test_impact_lists_the_task_whose_arithmetic_the_retyping_breaks(cli, tmp_path):
    # case 16: the planner rejected peek_order_events, impact did not list it as breaking
    import json
    import subprocess

    ws = edited_example(tmp_path, [])
    git = ["git", "-C", str(ws), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "base"], check=True)
    table = ws / "projects/ods/tables/kafka_orders.yaml"
    table.write_text(table.read_text(encoding="utf-8").replace("{name: quantity, type: INT", "{name: quantity, type: STRING"),
                     encoding="utf-8")
    report = json.loads(cli("impact", ".", "--base", "HEAD", "--format", "json", cwd=ws).stdout)
    breaking = {t["node"] for t in report["impacts"] if t["classification"] == "breaking"}
    assert "task.ods.debug/peek_order_events" in breaking, report["impacts"]
