"""Planning on every core (issue 42 item 5): lint plans several tasks at once, on conversations of its own with the
warm service, which plans each on a planner of its own. What must not change: the verdicts, their order, the
isolation of one task from another, and a client getting exactly its own answers. Real JVMs, Flink 1.20's planner."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from flinkx_build.planner.process import WORKERS_ENV
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from tests.lint.test_planner_pass import stop_all_services
from tests.lint.test_planner_pass import workspace

pytestmark = [pytest.mark.flink, pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                                    reason=f"no planner: {planner_problem('1.20', fetch=True)}")]

# tasks only the planner rejects (the fast checks pass them), between tasks it accepts
REJECTED_HINT = ("INSERT INTO user_totals\nSELECT user_id, SUM(amount) AS total\n"
                 "FROM orders /*+ OPTIONS('scan.startup.mode'='earliest-offset',) */\nGROUP BY user_id;\n")
ACCEPTED = "INSERT INTO user_totals\nSELECT user_id, SUM(amount) AS total\nFROM orders\nGROUP BY user_id;\n"


@pytest.fixture(autouse=True)
def _stop_services():
    stop_all_services()
    yield
    stop_all_services()


def several_rejected(tmp_path: Path) -> Path:
    ws = workspace(tmp_path, "1.20")
    tasks = ws / "projects" / "p" / "tasks"
    for number in range(8):
        text = REJECTED_HINT if number % 2 else ACCEPTED
        (tasks / f"t{number}.sql").write_text(f"-- task {number}\n" + "\n" * number + text, encoding="utf-8")
    return ws


def lint_with(ws: Path, workers: int) -> subprocess.CompletedProcess:
    """A cold lint (no workspace cache, so no verdict is read back) planning `workers` tasks at once, on a service
    started for it."""
    shutil.rmtree(ws / ".flinkx-cache", ignore_errors=True)
    stop_all_services()
    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER"}
    env[WORKERS_ENV] = str(workers)
    return subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "-v", "."], cwd=ws, env=env, capture_output=True,
                          text=True, timeout=600)


def test_planning_in_parallel_gives_the_serial_findings_in_the_same_order(tmp_path):
    ws = several_rejected(tmp_path)
    serial = lint_with(ws, 1)
    rejected = [line for line in serial.stdout.splitlines() if " FX301 " in line]
    assert len(rejected) == 4 and serial.returncode == 1, serial.stdout + serial.stderr
    assert "planner: 11 task(s) planned" in serial.stderr, serial.stderr
    for workers in (2, 3):
        parallel = lint_with(ws, workers)
        assert "planner: 11 task(s) planned" in parallel.stderr, parallel.stderr
        assert (parallel.stdout, parallel.returncode) == (serial.stdout, serial.returncode), workers


def request(statements: list[str], request_id: int) -> dict:
    return {"id": request_id, "budget_ms": 120_000, "mode": "stream", "udfs": [],
            "statements": [{"sql": sql, "skip": False} for sql in statements]}


TABLE = "CREATE TEMPORARY TABLE {name} ({column} BIGINT) WITH ('connector' = 'datagen')"
SINK = "CREATE TEMPORARY TABLE {name} ({column} BIGINT) WITH ('connector' = 'blackhole')"


def own_objects(number: int) -> list[str]:
    """A task that makes a table, a view and a function of its own and sets an option, then reads them."""
    return [TABLE.format(name="src", column=f"c{number}"), SINK.format(name="snk", column=f"c{number}"),
            f"CREATE TEMPORARY VIEW v{number} AS SELECT c{number} FROM src",
            "SET 'table.exec.state.ttl' = '1 h'",
            f"INSERT INTO snk SELECT c{number} FROM v{number}"]


def reads_another_tasks(number: int) -> list[str]:
    """A task that reads task `number`'s table, view and column without making them."""
    return [SINK.format(name="snk2", column="x"), f"INSERT INTO snk2 SELECT c{number} FROM v{number}"]


def messages(answer: dict) -> list[str]:
    assert "findings" in answer, answer
    return [" ".join(f.get("messages", [f.get("note", "")])) for f in answer["findings"]]


def test_what_one_task_makes_is_invisible_to_the_next(tmp_path):
    with open_planner("1.20", warm=False) as planner:  # one driver, one conversation: tasks one after another
        assert messages(planner.ask(request(own_objects(1), 1))) == []
        [missing] = messages(planner.ask(request(reads_another_tasks(1), 2)))
        assert "Object 'v1' not found" in missing
        # the same names again, with another column: no "already exists", no column of task 1
        assert messages(planner.ask(request(own_objects(2), 3))) == []
        [gone] = messages(planner.ask(request([TABLE.format(name="src", column="c9"), SINK.format(name="snk", column="c9"),
                                               "INSERT INTO snk SELECT c2 FROM src"], 4)))
        assert "Column 'c2' not found" in gone


def test_the_warm_service_answers_concurrent_clients_each_with_its_own_answers(tmp_path, monkeypatch):
    monkeypatch.setenv(WORKERS_ENV, "2")  # the service plans two tasks at once
    scripts = [own_objects(n) if n % 2 else reads_another_tasks(n - 1) for n in range(1, 13)]
    with open_planner("1.20", warm=False) as alone:  # the expected answers, one task at a time
        expected = [messages(alone.ask(request(script, n))) for n, script in enumerate(scripts)]
    assert expected[1] and not expected[0]  # some accepted, some rejected: a mixed-up answer shows
    answers: dict[int, list[list[str]]] = {}

    def client(number: int) -> None:
        with open_planner("1.20", warm=True) as planner:
            got = []
            for n, script in enumerate(scripts):
                answer = planner.ask(request(script, n))
                assert answer.get("id") == n + 1  # the conversation's own numbering (Planner.ask)
                got.append(messages(answer))
            answers[number] = got

    clients = [threading.Thread(target=client, args=(number,)) for number in range(3)]
    for thread in clients:
        thread.start()
    for thread in clients:
        thread.join(timeout=600)
    assert answers == {number: expected for number in range(3)}

