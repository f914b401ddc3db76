"""lint's planner pass (FX301, issue 28 item 1) with real planners: the warm service, the verdict cache,
what lint says without Java or without the target's jars. Real CLI processes, real JVMs."""
from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner import jar as driver
from flinkx_build.planner import jars
from flinkx_build.planner import service
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import TARGETS
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars

FIXTURE = Path(__file__).parents[1] / "fixtures" / "targets"
pytestmark = [pytest.mark.flink, pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                                    reason=f"no planner: {planner_problem('1.20', fetch=True)}")]


def workspace(tmp_path: Path, version: str) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    (ws / "flinkx.yaml").write_text(f'engine: flink\nflink_version: "{version}"\n', encoding="utf-8")
    return ws


def lint(ws: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`flinkx lint` as a user runs it: with the planner (the suite turns it off elsewhere, tests/conftest.py)."""
    env = {k: v for k, v in (env or os.environ).items() if k != "FLINKX_NO_PLANNER"}
    return subprocess.run([sys.executable, "-m", "flinkx_build", "lint", ws.name, *args], cwd=ws.parent, env=env,
                          capture_output=True, text=True, timeout=600)


def service_of(version: str) -> tuple[Path, Path]:
    target = TARGETS[version]
    lib = jars.installed_lib(target)
    assert lib is not None
    return lib, driver.driver_jar(target, lib, None)


def stop_all_services() -> None:
    """End the warm planner of every target this session started."""
    for version in TARGETS:
        target = TARGETS[version]
        lib = jars.installed_lib(target)
        try:
            jar = driver.driver_jar(target, lib, None) if lib is not None else None
        except FlinkUnavailable:  # never compiled in this session: no service of it can be running
            jar = None
        if jar is not None:
            service.stop(target, jar)


@pytest.fixture
def stop_services():
    # before too: a service an earlier test of the run left (its idle time that test's, maybe seconds) would answer
    # this test's lint, and end, or live on, on its own clock (the socket was gone right after a lint once)
    stop_all_services()
    yield
    stop_all_services()


def fx301(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stdout.splitlines() if ": FX301 " in line]


@pytest.mark.network
def test_lint_reports_the_target_planners_verdict_at_the_task_token(tmp_path, jars_23, stop_services):
    ws = workspace(tmp_path / "a", "2.3")
    both = lint(ws)  # the fast check (FX497) and the planner say the same: one line (issue 44)
    found = [line for line in both.stdout.splitlines() if "upsert_key_differs.sql:" in line]
    assert [line.split(": ")[1].split()[0] for line in found] == ["FX497"], both.stdout
    task = ws / "projects" / "p" / "tasks" / "upsert_key_differs.sql"
    task.write_text(task.read_text(encoding="utf-8").replace("INSERT INTO order_totals", "INSERT INTO order_totals -- noqa: FX497"),
                    encoding="utf-8")
    on_23 = lint(ws)  # the fast check silenced: the planner's verdict is the finding
    assert on_23.returncode == 1, on_23.stdout + on_23.stderr
    [line] = fx301(on_23)
    assert line == ("ws/projects/p/tasks/upsert_key_differs.sql:2:1: FX301 the query's upsert key differs from the primary key "
                    "of p.order_totals (group by the sink's primary key, or add ON CONFLICT DO DEDUPLICATE after the query)")
    on_120 = lint(workspace(tmp_path / "b", "1.20"))
    assert on_120.returncode == 0 and fx301(on_120) == [], on_120.stdout + on_120.stderr
    assert "planner" not in on_120.stderr


def test_a_place_a_fast_check_already_reports_is_not_repeated(tmp_path, stop_services):
    ws = workspace(tmp_path, "1.20")
    task = ws / "projects" / "p" / "tasks" / "removed_option.sql"
    task.write_text(task.read_text(encoding="utf-8").replace("payload AS body", "payloadd AS body"), encoding="utf-8")
    result = lint(ws)
    assert result.returncode == 1
    assert any(": FX401 " in line and "removed_option.sql:4:18" in line for line in result.stdout.splitlines()), result.stdout
    assert fx301(result) == [], result.stdout  # the planner's "Column 'payloadd' not found" is the same place


def test_no_planner_and_the_lint_setting_skip_it(tmp_path, jars_23, stop_services):
    ws = workspace(tmp_path, "2.3")
    skipped = lint(ws, "--no-planner")
    assert fx301(skipped) == []
    # the fast checks still run: the upsert-key mismatch is FX497 offline (checks/on_conflict.py)
    assert any(" FX497 " in line for line in skipped.stdout.splitlines()) and skipped.returncode == 1, skipped.stdout
    no_planner = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", "ws"], cwd=tmp_path, capture_output=True,
                                text=True, timeout=600, env={**os.environ, "FLINKX_NO_PLANNER": "1"})
    assert fx301(no_planner) == [] and no_planner.stdout == skipped.stdout and no_planner.returncode == 1
    (ws / "flinkx.yaml").write_text('engine: flink\nflink_version: "2.3"\nlint:\n  FX301: off\n', encoding="utf-8")
    result = lint(ws)
    assert fx301(result) == [] and result.stdout == skipped.stdout and result.returncode == 1, result.stdout + result.stderr


def test_without_java_lint_says_once_what_did_not_run_and_exits_as_before(tmp_path):
    ws = workspace(tmp_path, "1.20")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    os.symlink(sys.executable, bin_dir / "python3")
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(bin_dir)
    result = lint(ws, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    notes = [line for line in result.stderr.splitlines() if "FX301" in line]
    assert notes == ["flinkx: the planner check (FX301) did not run: Java was not found: install a Java 17 JDK "
                     "(java and javac) and put it on PATH or set JAVA_HOME"], result.stderr
    again = lint(ws, env=env)  # replayed from the run memo: still said, still once
    assert [line for line in again.stderr.splitlines() if "FX301" in line] == notes


def test_lint_never_downloads_a_target(tmp_path):
    ws = workspace(tmp_path, "2.3")
    home = tmp_path / "home"
    result = lint(ws, env={**os.environ, "FLINKX_HOME": str(home), jars.WHEEL_DIR_ENV: "", jars.FLINK_HOME_ENV: ""})
    # the exit code is the fast checks' (FX497 on the upsert-key task), with or without the planner
    assert result.returncode == 1 and fx301(result) == [], result.stdout + result.stderr
    assert ("flinkx: the planner check (FX301) did not run: FX303 the jars of Flink 2.3 are not here yet: run "
            "`flinkx validate` once to fetch them (about 330 MB), or set $FLINKX_FLINK_HOME") in result.stderr.splitlines()
    assert not (home / "targets").exists()


def test_an_unchanged_task_is_never_planned_twice(tmp_path, stop_services):
    from flinkx_build.lint.planner_pass import PlannerPass
    from flinkx_build.lint.run import lint_workspace
    from flinkx_build.pipeline import Session

    ws = workspace(tmp_path, "1.20")
    first = PlannerPass(Session.open(ws))
    lint_workspace(first.session, [], planner=first)
    first.close()
    assert first.planned == 3 and first.cached == 0 and first.note == ""
    second = PlannerPass(Session.open(ws))
    lint_workspace(second.session, [], planner=second)
    second.close()
    assert second.planned == 0 and second.cached == 3


def test_the_service_lives_in_the_user_cache_with_only_flinkxs_class_path(tmp_path, stop_services):
    ws = workspace(tmp_path, "1.20")
    env = {**os.environ, service.IDLE_ENV: "20"}
    assert lint(ws, env=env).returncode == 0
    lib, jar = service_of("1.20")
    sock = service.socket_path(TARGETS["1.20"], jar)
    assert sock.exists() and stat.S_ISSOCK(os.stat(sock).st_mode)
    home = Path(os.environ["FLINKX_HOME"])
    assert sock.is_relative_to(home) and not sock.is_relative_to(ws)
    assert stat.S_IMODE(os.stat(sock.parent).st_mode) == 0o700
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    commands = []
    for pid in pids:
        try:
            commands.append(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0"))
        except OSError:
            continue
    [cmd] = [c for c in commands if str(sock).encode() in c]
    classpath = cmd[cmd.index(b"-cp") + 1].decode().split(os.pathsep)
    assert classpath == [str(jar), str(lib / "*")]
    # idle for its twenty seconds, it ends and takes its socket with it
    deadline = time.monotonic() + 60
    while sock.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not sock.exists()


@pytest.mark.network
def test_an_ending_service_leaves_the_next_services_socket_alone(tmp_path, stop_services):
    """A client that found the service gone starts the next one at the same path; the old one, ending, must not
    delete the new one's socket (by path it did, and the new service lived on unreachable until its idle time)."""
    ws = workspace(tmp_path, "1.20")
    assert lint(ws, env={**os.environ, service.IDLE_ENV: "300"}).returncode == 0
    _, jar = service_of("1.20")
    sock = service.socket_path(TARGETS["1.20"], jar)
    [pid] = _pids_with(str(sock).encode())
    old = sock.with_name(sock.name + ".old")
    sock.rename(old)  # the old service is still bound to its file, now under another name
    newer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        newer.bind(str(sock))  # the next service's socket, at the path the old one was started with
        newer.listen()
        assert service.stop_at(old)  # the old service, asked to end
        deadline = time.monotonic() + 60  # it ends within a second or two
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _alive(pid), "the old service did not end"
        assert sock.exists() and stat.S_ISSOCK(os.stat(sock).st_mode)
        assert old.exists()  # its own file, under a name it was not started with, is left as found
    finally:
        newer.close()
        sock.unlink(missing_ok=True)
        old.unlink(missing_ok=True)


def _alive(pid: str) -> bool:
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def _pids_with(text: bytes) -> list[str]:
    """The processes whose command line holds `text`."""
    found = []
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            if text in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found
