"""FX498 for an empty value of a typed connector option (seed 001's filesystem template writes
`'source.monitor-interval'=''`): Flink's factory parses every option it declares when it creates the table, and
an empty Duration, Boolean, number or memory size is not one. Flink is the oracle: the same tables, used by an
INSERT, on each target's real planner with the real connectors (Verdict.java)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.facts.jars import skip_reason
from tests.facts.verdict import verdicts

VERSIONS = ("1.15", "1.20", "2.3")
# (connector options in YAML, the option left empty or given a value); filesystem as a sink, datagen as a source
CASES = {
    "duration": ("connector: filesystem\n  path: /tmp/x\n  format: csv\n", "source.monitor-interval", "1 h"),
    "boolean": ("connector: filesystem\n  path: /tmp/x\n  format: csv\n", "sink.shuffle-by-partition.enable", "true"),
    "memory size": ("connector: filesystem\n  path: /tmp/x\n  format: csv\n", "sink.rolling-policy.file-size", "128 mb"),
    "long": ("connector: datagen\n", "rows-per-second", "5"),
    "integer": ("connector: datagen\n", "fields.name.length", "3"),
}
SINK = "connector: blackhole\n"


def _yaml(name: str, options: str, key: str, value: str) -> str:
    return (f"name: {name}\ntype: x\ncolumns:\n  - {{name: id, type: INT}}\n  - {{name: name, type: STRING}}\n"
            f"with:\n  {options}  {key}: \"{value}\"\n")


def _workspace(make_workspace, case: str, value: str, version: str = "1.15") -> Path:
    options, key, _ = CASES[case]
    is_sink = "filesystem" in options
    files = {"flinkx.yaml": f'engine: flink\nflink_version: "{version}"\n',
             "projects/p/tables/t.yaml": _yaml("t", options, key, value),
             "projects/p/tables/other.yaml": _yaml("other", "connector: datagen\n", "number-of-rows", "3") if is_sink
             else _yaml("other", SINK, "", "").replace('  : ""\n', ""),
             "projects/p/tasks/job.sql": "INSERT INTO t SELECT id, name FROM other;\n" if is_sink
             else "INSERT INTO other SELECT id, name FROM t;\n"}
    return make_workspace(files)


def _lint(ws: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "-q", "."], cwd=ws, capture_output=True,
                          text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("case", CASES)
def test_an_empty_typed_option_is_fx498_at_its_key(make_workspace, case):
    _, key, _ = CASES[case]
    found = _lint(_workspace(make_workspace, case, ""))
    assert len(found) == 1 and found[0].startswith("projects/p/tables/t.yaml:"), found
    assert f" FX498 '{key}' = '' is not a value the " in found[0] and found[0].endswith(
        "write one, or leave the option out for its default)"), found


@pytest.mark.parametrize("case", CASES)
def test_a_value_of_the_type_is_quiet(make_workspace, case):
    assert _lint(_workspace(make_workspace, case, CASES[case][2])) == []


@pytest.mark.flink
@pytest.mark.parametrize("version", VERSIONS)
def test_flink_refuses_each_empty_value_and_takes_each_written_one(version):
    reason = skip_reason(version)
    if reason:
        pytest.skip(reason)
    cases = {}
    for case, (options, key, value) in CASES.items():
        with_ = ", ".join(f"'{line.split(': ', 1)[0].strip()}' = '{line.split(': ', 1)[1]}'"
                          for line in options.strip().splitlines())
        for label, written in (("empty", ""), ("written", value)):
            table = f"CREATE TABLE t (id INT, name STRING) WITH ({with_}, '{key}' = '{written}')"
            cases[f"{case.replace(' ', '_')}-{label}"] = (
                [table, "INSERT INTO t SELECT id, name FROM (VALUES (1, 'a')) AS v (id, name)"] if "filesystem" in options
                else [table, "CREATE TABLE s (id INT, name STRING) WITH ('connector' = 'blackhole')",
                      "INSERT INTO s SELECT id, name FROM t"])
    for name, verdict in verdicts(version, cases).items():
        if name.endswith("-written"):
            assert verdict == "OK", (name, verdict)
        else:
            assert verdict.startswith("ERROR") and "Could not parse value ''" in verdict, (name, verdict)
