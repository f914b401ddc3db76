"""The planner driver loads no code a task names, even when flinkx's own refusals (FX195/FX196) are
bypassed and the statements reach it directly: its second filter decides on Flink's parsed statement."""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest

from flinkx_build.child_process import java_tool
from flinkx_build.planner import jars
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.security.test_planted_jar import PLANTED

pytestmark = [pytest.mark.flink, pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                                    reason=f"no 1.20 planner: {planner_problem('1.20', fetch=True)}")]


def planted_jar(work: Path, marker: Path) -> Path:
    """A jar whose table factory writes `marker` the moment anything loads its class."""
    lib = jars.installed_lib(TARGETS["1.20"])
    assert lib is not None
    source = work / "src" / "planted" / "Planted.java"
    source.parent.mkdir(parents=True)
    source.write_text(PLANTED % ('"' + str(marker) + '"'), encoding="utf-8")
    classes = work / "classes"
    subprocess.run([java_tool("javac"), "--release", "11", "-cp", str(lib / "*"), "-d", str(classes), str(source)],
                   check=True, capture_output=True)
    jar = work / "planted.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.write(classes / "planted" / "Planted.class", "planted/Planted.class")
        zf.writestr("META-INF/services/org.apache.flink.table.factories.Factory", "planted.Planted\n")
    return jar


def test_statements_that_would_load_a_jar_are_never_executed_by_the_driver(tmp_path):
    marker = tmp_path / "planted-code-ran"
    jar = planted_jar(tmp_path / "jar", marker)
    hostile = [
        f"ADD JAR '{jar}'",
        f"SET 'pipeline.jars' = '{jar.as_uri()}'",
        f"SET 'pipeline.classpaths' = '{jar.as_uri()}'",
        f"CREATE TEMPORARY FUNCTION f AS 'planted.Planted' USING JAR '{jar}'",
        f"CREATE TEMPORARY SYSTEM FUNCTION g AS 'planted.Planted' LANGUAGE JAVA USING JAR '{jar}'",
        "CREATE CATALOG c WITH ('type' = 'planted')",
        "LOAD MODULE planted",
        "CREATE TEMPORARY TABLE t (a INT) WITH ('connector' = 'planted')",
        "INSERT INTO t SELECT 1",
        "SELECT f(1)",
    ]
    script = ScriptToValidate("p/hostile", "hostile.sql",
                              tuple(CompiledStatement(sql, i + 1, 1, "other", (i + 1, 1)) for i, sql in enumerate(hostile)))
    with open_planner("1.20", fetch=False) as planner:
        findings = planner.validate(script)
        clean = planner.validate(ScriptToValidate("p/ok", "ok.sql", (CompiledStatement("SELECT 1", 1, 1, "select"),)))
    assert not marker.exists(), "a jar a task named was loaded"
    messages = [f.message for f in findings]
    assert any("is created from 'planted.Planted' but its return type is not declared" in m for m in messages), messages
    assert not any(f.extra.get("internal") for f in findings), messages
    assert clean == []  # and the driver is still there, planning
