"""Issue 41, item 2: the planner fails closed. A task must not stall the planner into a clean lint.

The attack: two allowed settings turn on exhaustive (bushy) join reordering, and a three-line task joins
16 tables; Flink 1.20 then plans for more than ten minutes (measured: over 600 s; at Flink's default
threshold of 12 the same join plans in about 3 s). Before the fix the client gave up and lint said
"clean", and the warm service kept planning for its abandoned client, blocking the next lint.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flinkx_build.child_process import java_tool
from flinkx_build.planner import jars
from flinkx_build.planner import protocol
from flinkx_build.planner.jar import driver_jar
from flinkx_build.planner.process import BUDGET_ENV
from flinkx_build.planner.service import IDLE_ENV
from flinkx_build.planner.service import socket_path
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.conftest import write_tree

needs_planner = pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                   reason=f"no 1.20 planner: {planner_problem('1.20', fetch=True)}")
TABLES = 16
REORDER = "SET 'table.optimizer.join-reorder-enabled' = 'true';\n"
EXHAUSTIVE = "SET 'table.optimizer.bushy-join-reorder-threshold' = '1000';\n"


def star_join(tables: int = TABLES) -> str:
    joins = "\n".join(f"JOIN t{i} ON t{i}.id = t1.id" for i in range(2, tables + 1))
    return f"INSERT INTO snk SELECT t1.id, t1.v1 FROM t1\n{joins};\n"


def join_workspace(root: Path, task: str) -> Path:
    files = {"flinkx.yaml": 'engine: flink\nflink_version: "1.20"\n', "projects/p/project.yaml": "name: p\n",
             "projects/p/tasks/stall.sql": task,
             "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\n"
                                           "  - {name: v, type: STRING}\nwith: {connector: blackhole}\n"}
    for i in range(1, TABLES + 1):
        files[f"projects/p/tables/t{i}.yaml"] = (f"name: t{i}\ntype: datagen\ncolumns:\n  - {{name: id, type: BIGINT}}\n"
                                                 f"  - {{name: v{i}, type: STRING}}\nwith: {{connector: datagen}}\n")
    return write_tree(root, files)


def flinkx(*args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    environ = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}  # the planner on, as a user has it
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, env={**environ, **(env or {})},
                          capture_output=True, text=True, timeout=timeout)


def test_a_set_that_makes_join_reordering_exhaustive_is_refused_at_its_line(tmp_path):
    ws = join_workspace(tmp_path / "ws", REORDER + EXHAUSTIVE + star_join())
    for command in (["lint", "--no-planner", "."], ["build", "--check", "--no-planner", "."]):
        done = flinkx(*command, cwd=ws)
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert done.stdout.splitlines() == [
            "projects/p/tasks/stall.sql:2:1: FX196 SET 'table.optimizer.bushy-join-reorder-threshold' = '1000' is over "
            "flinkx's cap of 12: past it, planning a join takes exponential time (docs/security.md, allowed engine "
            "settings) (set it to 12 or less, or remove the SET (Flink's default is 12))"], command


def test_a_value_within_the_cap_is_allowed(tmp_path):
    ws = join_workspace(tmp_path / "ws", REORDER + "SET 'table.optimizer.bushy-join-reorder-threshold' = '10';\n" + star_join())
    done = flinkx("lint", "--no-planner", ".", cwd=ws)
    assert done.returncode == 0, done.stdout + done.stderr


@needs_planner
def test_the_driver_never_hands_the_engine_a_setting_over_its_cap(tmp_path):
    """Even reached directly (flinkx's FX196 bypassed), the driver skips the over-cap SET: the join plans at
    Flink's default threshold instead of for more than ten minutes."""
    statements = [REORDER, EXHAUSTIVE] + [
        f"CREATE TEMPORARY TABLE t{i} (id BIGINT, v{i} STRING) WITH ('connector' = 'datagen')" for i in range(1, TABLES + 1)
    ] + ["CREATE TEMPORARY TABLE snk (id BIGINT, v STRING) WITH ('connector' = 'blackhole')", star_join()]
    script = ScriptToValidate("p/stall", "stall.sql", tuple(
        CompiledStatement(sql.strip().rstrip(";"), i + 1, 1, "other", (i + 1, 1)) for i, sql in enumerate(statements)))
    began = time.monotonic()
    with open_planner("1.20", fetch=False) as planner:
        findings = planner.validate(script)
    assert findings == []
    assert time.monotonic() - began < 300  # a guard: ten times the ~30 s a cold driver and this plan take here


@needs_planner
def test_a_task_over_its_planning_budget_is_one_fx306_error_never_clean(tmp_path):
    ws = join_workspace(tmp_path / "ws", REORDER + star_join())
    # a service of this test's own, gone soon after the test (its idle exit)
    env = {BUDGET_ENV: "0.2", "FLINKX_HOME": str(tmp_path / "home"), IDLE_ENV: "20"}
    for command in (["lint", "."], ["build", "--check", "."]):
        done = flinkx(*command, cwd=ws, env=env)
        assert done.returncode == 1, (command, done.stdout, done.stderr)
        assert done.stdout.splitlines() == [
            "projects/p/tasks/stall.sql:1:1: FX306 planning this task took longer than its budget of 0.2 s, so the "
            "planner stopped it (simplify the statement (fewer joined tables, or no SET that enables join reordering); "
            f"${BUDGET_ENV} raises the budget on a slow machine)"], (command, done.stderr)
    # not cached: with the budget back, the same task is planned again and Flink accepts it
    done = flinkx("lint", ".", cwd=ws, env={"FLINKX_HOME": env["FLINKX_HOME"], IDLE_ENV: "20"})
    assert done.returncode == 0, done.stdout + done.stderr


def _converse(sock: socket.socket, *messages: dict) -> list[dict]:
    reader = sock.makefile("rb")
    answers = []
    for message in messages:
        sock.sendall(json.dumps(message).encode() + b"\n")
        answers.append(json.loads(reader.readline()))
    return answers


@needs_planner
def test_a_client_that_goes_away_cancels_its_planning_in_the_warm_service(tmp_path, monkeypatch):
    """A client that plans the exhaustive join (its own policy, without flinkx's caps: any local program of the
    user could speak to the socket so) and leaves: the service must not keep planning it for the next run."""
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(IDLE_ENV, "20")  # this test's services end soon after it
    target = TARGETS["1.20"]
    lib = jars.installed_lib(target)
    assert lib is not None
    with open_planner("1.20", fetch=False, warm=True) as first:  # starts this test's service
        assert first.validate(ScriptToValidate("p/ok", "ok.sql", (CompiledStatement("SELECT 1", 1, 1, "select"),))) == []
    path = socket_path(target, driver_jar(target, lib, java_tool("javac")))
    policy = protocol.policy()
    policy["policy"].pop("caps")
    statements = [REORDER, EXHAUSTIVE] + [
        f"CREATE TEMPORARY TABLE t{i} (id BIGINT, v{i} STRING) WITH ('connector' = 'datagen')" for i in range(1, TABLES + 1)
    ] + ["CREATE TEMPORARY TABLE snk (id BIGINT, v STRING) WITH ('connector' = 'blackhole')", star_join()]
    leaving = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    leaving.connect(str(path))
    assert _converse(leaving, policy)[0].get("ready")
    request = {"id": 1, "mode": "stream", "budget_ms": 3_600_000, "udfs": [],
               "statements": [{"sql": s.strip().rstrip(";"), "skip": False} for s in statements]}
    leaving.sendall(json.dumps(request).encode() + b"\n")
    time.sleep(5)  # planning has begun (the DDL takes well under a second)
    leaving.close()
    began = time.monotonic()
    # the service ends the abandoned planning by ending (its socket goes first); a client that connected in the
    # moment before would see it end under its own task, as a run's second conversation does (lint plans that task
    # again on a fresh driver: lint/planner_pass.py), so the next run is started once the socket is gone
    while path.exists() and time.monotonic() - began < 60:
        time.sleep(0.05)
    assert not path.exists()
    with open_planner("1.20", fetch=False, warm=True) as second:
        findings = second.validate(ScriptToValidate("p/ok", "ok.sql", (CompiledStatement("SELECT 1", 1, 1, "select"),)))
    assert findings == []
    # the abandoned join alone plans for more than ten minutes; a fresh service answers in seconds
    assert time.monotonic() - began < 120
