"""The parser process a build or a lint of named files forks before loading (frontend/worker.py)."""
from __future__ import annotations

import multiprocessing as mp
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from flinkx_build.frontend.worker import ParserProcess
from flinkx_build.frontend.worker import parse_text
from flinkx_build.frontend.worker import warm_parser
from flinkx_build.lint.jobs import RuleJob
from flinkx_build.lint.rule_worker import run_job
from flinkx_build.lint.rule_worker import warm_up_rules
from flinkx_build.pipeline import Session

TASK = """SET src.scan.startup.mode = 'latest-offset';
INSERT INTO dst SELECT id, name FROM src WHERE id > 0;
"""
TABLE = """name: {name}
type: kafka
columns:
  - {{name: id, type: BIGINT}}
  - {{name: name, type: STRING}}
with:
  topic: {name}
  properties.bootstrap.servers: "kafka:9092"
  format: json
"""



def _fresh(check, *args) -> None:
    """Run `check` in a new interpreter: the parser process is forked only by a single-threaded
    process, and this test run may hold a JVM gateway's threads by now."""
    with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
        pool.submit(check, *args).result(timeout=180)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _workspace(make_workspace):
    return make_workspace({
        "projects/p/project.yaml": "name: p\n",
        "projects/p/tables/src.yaml": TABLE.format(name="src"),
        "projects/p/tables/dst.yaml": TABLE.format(name="dst"),
        "projects/p/tasks/t.sql": TASK,
    })


def _parses_exactly_as_the_parent():
    assert threading.active_count() == 1
    process = ParserProcess.start(warm_parser)
    assert process is not None
    try:
        assert process.submit(parse_text, (TASK, {})).result(timeout=60) == parse_text((TASK, {}))
    finally:
        process.close()


def _runs_a_rule_pass_exactly_as_the_parent():
    job = RuleJob("SELECT `select` FROM t;\n", "t.sql", {}, ("FX01", "FX02", "FX03"), "3.7", False, {}, False)
    process = ParserProcess.start(warm_up_rules)
    assert process is not None
    try:
        assert process.submit(run_job, job).result(timeout=60) == run_job(job)
    finally:
        process.close()


def _close_stops_the_process_even_mid_warm_up():
    process = ParserProcess.start(warm_up_rules)
    assert process is not None
    pid = process._pid.result(timeout=30)
    process.close()  # at once: the warm-up (importing sqlfluff) is not finished
    assert not process.open
    assert not _alive(pid)
    with pytest.raises(RuntimeError):
        process.submit(os.getpid)


def _a_session_whose_process_died_still_parses(root):
    session = Session.open(root, parser=ParserProcess.start(warm_parser))
    assert session.parser is not None
    os.kill(session.parser._pid.result(timeout=30), 9)
    time.sleep(0.2)
    task = session.tasks()[0]
    try:
        with session.parsing_ahead([task]):
            statements = session.parsed(task)
    finally:
        session.close_parser()
    assert statements == parse_text((task.text, session.context_for(task)))
    assert session.summary(task).ok


def test_the_process_parses_exactly_as_the_parent():
    _fresh(_parses_exactly_as_the_parent)


def test_the_process_runs_a_rule_pass_exactly_as_the_parent():
    _fresh(_runs_a_rule_pass_exactly_as_the_parent)


def test_close_stops_the_process_even_mid_warm_up():
    _fresh(_close_stops_the_process_even_mid_warm_up)


def test_a_session_whose_process_died_still_parses(make_workspace):
    _fresh(_a_session_whose_process_died_still_parses, _workspace(make_workspace))


def test_no_process_is_forked_beside_another_thread():
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert ParserProcess.start(warm_parser) is None
    finally:
        stop.set()
        other.join()


@pytest.mark.parametrize("command", [["build", "."], ["lint", "projects/p/tasks/t.sql"]])
def test_the_command_line_leaves_no_process_holding_its_output(make_workspace, command):
    """The command leaves by os._exit: a forked process still alive would keep stdout open, and a
    caller reading it to the end (a pipe, pre-commit, CI) would wait for it."""
    root = _workspace(make_workspace)
    (root / "projects/p/tasks/t.sql").write_text(TASK + "-- edited\n", encoding="utf-8")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "flinkx_build", *command], cwd=root, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert time.monotonic() - started < 60


def _a_job_started_ahead_is_taken_once():
    job = RuleJob(TASK, "t.sql", {}, ("FX01", "FX02", "FX03"), "3.7", False, {}, False)
    other = RuleJob(TASK, "u.sql", {}, ("FX01", "FX02", "FX03"), "3.7", False, {}, False)
    process = ParserProcess.start(warm_up_rules)
    assert process is not None
    try:
        process.submit_ahead(run_job, job)
        assert process.waiting_ahead == 1
        assert process.take_or_submit(run_job, other).result(timeout=60) == run_job(other)  # not the one ahead
        assert process.waiting_ahead == 1
        ahead = process.take_or_submit(run_job, job)
        assert process.waiting_ahead == 0
        assert ahead.result(timeout=60) == run_job(job)
        assert process.take_or_submit(run_job, job) is not ahead  # taken once: now a new job
    finally:
        process.close()


def _a_named_files_pass_starts_before_the_tables_load(root):
    from flinkx_build.lint.early import start_rule_passes
    from flinkx_build.lint.run import lint_workspace
    from flinkx_build.lint.select import EVERY_CODE

    task_file = root / "projects/p/tasks/t.sql"
    process = ParserProcess.start(warm_up_rules)
    assert process is not None
    started = []

    def early(ws):
        assert not ws.projects["p"].tables  # (before the meta tables load)
        start_rule_passes(process, ws, [task_file], EVERY_CODE)
        started.append(process.waiting_ahead)

    try:
        session = Session.open(root, parser=process, on_projects=early)
        found, _ = lint_workspace(session, [task_file])
        assert started == [1] and process.waiting_ahead == 0  # started ahead, then taken by the lint
    finally:
        process.close()
    serial, _ = lint_workspace(Session.open(root, use_cache=False), [task_file])
    assert found == serial and any(d.code == "FX01" for d in found)


def test_a_job_started_ahead_is_taken_once():
    _fresh(_a_job_started_ahead_is_taken_once)


def test_a_named_files_pass_starts_before_the_tables_load(make_workspace):
    root = _workspace(make_workspace)
    (root / "projects/p/tasks/t.sql").write_text("SET src.watermark = WATERMARK FOR ts AS withOffset(ts, 1000);\n" + TASK,
                                                  encoding="utf-8")  # FX01: `watermark` unquoted
    _fresh(_a_named_files_pass_starts_before_the_tables_load, root)
