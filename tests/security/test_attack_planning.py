"""Planning a pull request's SQL never loads the workspace's code (issue 26, item 1).

`flinkx impact --state-compat` and `flinkx deploy --plan` compile a task to Flink's plan on the
machine that runs CI. A task that names a jar committed in the same pull request
(`CREATE FUNCTION ... USING JAR`) used to have the jar's static initialiser run there, and comments
inside the keywords hid `CREATE CATALOG`, `LANGUAGE PYTHON`, `ADD JAR` and `LOAD MODULE` from the
text filter. Each test builds the hostile workspace here, runs the real command (or the real
planner deploy uses) and checks that the jar's marker was never written, that the FX195 line
points at the statement, and that nothing in the workspace changed.
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import flink_available
from tests.security.hostile_ws import INSERT
from tests.security.hostile_ws import commit
from tests.security.hostile_ws import evil_jar
from tests.security.hostile_ws import tree_state
from tests.security.hostile_ws import workspace

pytestmark = pytest.mark.flink
needs_flink = pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")

CALLS_F = "INSERT INTO kafka_sink SELECT f(order_id), amount FROM orders WHERE paid;\n"


def _env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return {**os.environ, "HOME": str(home), "FLINKX_HOME": str(home / "flinkx"), "TMPDIR": str(home)}


@needs_flink
@pytest.mark.parametrize("task, line, col, keywords", [
    ("CREATE TEMPORARY FUNCTION f AS 'evil.Evil' LANGUAGE JAVA USING JAR 'lib/evil.jar';\n" + CALLS_F, 1, 1, "USING JAR"),
    ("CREATE TEMPORARY FUNCTION f AS 'evil.Evil' LANGUAGE JAVA USING /* c */ JAR 'lib/evil.jar';\n" + CALLS_F, 1, 1, "USING JAR"),
    ("-- a function\nCREATE TEMPORARY FUNCTION f AS 'evil_udf.f' LANGUAGE /* c */ PYTHON;\n" + CALLS_F, 2, 1, "LANGUAGE PYTHON"),
    ("/* c */ CREATE CATALOG c WITH ('type' = 'jdbc');\n" + INSERT.replace("WHERE paid", "WHERE NOT paid"),
     1, 9, "CREATE CATALOG"),
], ids=["using-jar", "using-comment-jar", "language-comment-python", "comment-create-catalog"])
def test_impact_state_compat_never_loads_the_workspaces_code(tmp_path, task, line, col, keywords):
    marker = tmp_path / "evil-code-ran"
    ws = workspace(tmp_path / "ws")
    commit(ws, "base")
    (ws / "lib").mkdir()
    (ws / "lib" / "evil.jar").write_bytes(evil_jar(tmp_path / "jar", marker).read_bytes())
    (ws / "projects" / "p" / "tasks" / "t.sql").write_text(task, encoding="utf-8")
    before = tree_state(ws)

    # CI runs from the repository's root, where the committed jar's relative path resolves
    result = subprocess.run([sys.executable, "-m", "flinkx_build", "impact", ".", "--base", "HEAD", "--state-compat"],
                            cwd=ws, env=_env(tmp_path), capture_output=True, text=True, timeout=600)

    assert not marker.exists(), "the committed jar's code ran while planning"
    assert "Traceback" not in result.stderr, result.stderr
    assert f"projects/p/tasks/t.sql:{line}:{col}: FX195 '{keywords}' makes Flink load code" in result.stderr, result.stderr
    assert "fully compatible" not in result.stdout, result.stdout
    assert "not planned" in result.stdout, result.stdout
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert tree_state(ws) == before


@needs_flink
@pytest.mark.parametrize("loading, keywords", [
    ("/* c */ ADD JAR '{jar}'", "AddJarOperation"),
    ("LOAD /* c */ MODULE evil", "LoadModuleOperation"),
    ("/* c */ CREATE CATALOG c WITH ('type' = 'jdbc')", "CreateCatalogOperation"),
], ids=["comment-add-jar", "load-comment-module", "comment-create-catalog"])
def test_the_planner_deploy_uses_refuses_statements_that_load_code(tmp_path, loading, keywords):
    """`deploy --plan` and apply's verdict: the deployed job's statements come back from the
    cluster, and the new ones from the pull request; the planner decides on Flink's parse."""
    from flinkx_build.deploy.client import FlinkClient
    from flinkx_build.deploy.identity import Statement
    from flinkx_build.deploy.submission import DeployFlinkError

    marker = tmp_path / "evil-code-ran"
    jar = evil_jar(tmp_path / "jar", marker)
    statements = [
        Statement("create_table", "CREATE TEMPORARY TABLE src (s STRING) WITH ('connector' = 'datagen')"),
        Statement("create_table", "CREATE TEMPORARY TABLE snk (s STRING) WITH ('connector' = 'blackhole')"),
        Statement("other", loading.format(jar=jar.as_uri())),
        Statement("create_function", "CREATE TEMPORARY FUNCTION f AS 'evil.Evil'"),
        Statement("insert", "INSERT INTO snk SELECT f(s) FROM src"),
    ]
    with FlinkClient("1.20", []) as flink:
        with pytest.raises(DeployFlinkError) as refused:
            flink.compile_plan(statements)
    assert not marker.exists(), "the jar's code ran while planning"
    assert str(refused.value).startswith(f"FX195 not planned: {keywords} could load or run code"), refused.value


@needs_flink
def test_a_function_with_a_jar_is_planned_as_its_declared_stand_in(tmp_path):
    """The planner deploy uses registers a function from its declared signature: the class and
    jar a statement names are never loaded, and the plan still compiles."""
    from flinkx_build.deploy.client import FlinkClient
    from flinkx_build.deploy.identity import Statement
    from flinkx_build.validate.contract import UdfStub

    marker = tmp_path / "evil-code-ran"
    jar = evil_jar(tmp_path / "jar", marker)
    statements = [
        Statement("create_table", "CREATE TEMPORARY TABLE src (s STRING) WITH ('connector' = 'datagen')"),
        Statement("create_table", "CREATE TEMPORARY TABLE snk (s STRING) WITH ('connector' = 'blackhole')"),
        Statement("create_function", f"CREATE TEMPORARY FUNCTION f AS 'evil.Evil' LANGUAGE JAVA USING JAR '{jar.as_uri()}'"),
        Statement("insert", "INSERT INTO snk SELECT f(s) FROM src"),
    ]
    with FlinkClient("1.20", []) as flink:
        plan = flink.compile_plan(statements, (UdfStub("f", "STRING"),))
    assert not marker.exists(), "the jar's code ran while planning"
    assert plan["nodes"], plan
