"""The base side of `flinkx impact` taken in a forked child (`impact/forked_snapshot.py`).

Run by `test_forked_snapshot.py` in a pytest of its own (a fresh, single-threaded interpreter):
these cases fork the test process itself.
"""
from __future__ import annotations

import gc
import os
import signal
import tempfile
import threading
from pathlib import Path

import pytest

from flinkx_build.commands import impact as impact_command
from flinkx_build.errors import UsageError
from flinkx_build.impact import forked_snapshot
from flinkx_build.impact.forked_snapshot import ForkedSnapshot
from flinkx_build.impact.gitrev import Revision
from flinkx_build.impact.gitrev import resolve_revision
from flinkx_build.impact.compare import compare
from flinkx_build.impact.snapshot import Snapshot
from flinkx_build.impact.snapshot import take_snapshot
from flinkx_build.pipeline import Session
from tests.impact.test_impact_scenarios import SCENARIOS
from tests.impact.test_impact_scenarios import rename_column

pytestmark = pytest.mark.skipif(not forked_snapshot.can_fork(), reason="needs the fork start method")


@pytest.fixture
def forks(monkeypatch) -> list[ForkedSnapshot]:
    """Every ForkedSnapshot the command makes (forking allowed even on a one-core machine)."""
    threads = [t.name for t in threading.enumerate()]
    assert threads == ["MainThread"], f"threads {threads}: a fork now could deadlock the child"
    made = []

    class Recorded(ForkedSnapshot):
        def __init__(self, *args) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(impact_command, "ForkedSnapshot", Recorded)
    monkeypatch.setattr(impact_command, "can_take_forked", lambda: True)
    return made


def _report(impact, repo, *args: str) -> dict:
    result, data = impact(repo, *args, "--fail-on", "never")
    assert result.exit_code == 0, result.stderr
    return data


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_forked_base_reports_what_the_serial_one_does(shop_root, impact, forks, monkeypatch, scenario):
    scenario.change(shop_root)  # uncommitted: the head is the working tree
    forked = _report(impact, shop_root, "--base", "HEAD")
    assert len(forks) == 1 and not forks[0]._child.is_alive()  # the child ran and has exited
    monkeypatch.setattr(impact_command, "can_take_forked", lambda: False)
    serial = _report(impact, shop_root, "--base", "HEAD")
    assert len(forks) == 1
    assert forked == serial
    assert forked["changes"] or scenario.name.startswith("change only comments")


def test_only_what_a_change_reaches_crosses_the_pipe(shop_root, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", tempfile.mkdtemp(dir=shop_root.root.parent))
    rename_column(shop_root)  # one table changed, in the working tree
    root = shop_root.ws.resolve()
    asked = []
    with ForkedSnapshot(shop_root.root, resolve_revision(shop_root.root, "HEAD"), "", root / ".flinkx-cache", root) as side:
        ask = side._ask
        monkeypatch.setattr(side, "_ask", lambda kind, node: asked.append((kind, node)) or ask(kind, node))
        head = take_snapshot(Session.open(root), root)
        base = side.snapshot(head)
        assert set(base.tables) == set(head.tables) and len(base.tables) > 5 and asked == []
        # a task whose summary key is unchanged shares the head's facts: only the others were summarised there
        readers = {node for node, facts in head.tasks.items() if "table.ods.orders" in facts.reads}
        rekeyed = {node for node, key in base.summary_keys.items() if head.summary_keys[node] != key}
        summarised = {node for node in base.tasks if base.tasks[node] is not head.tasks[node]}
        assert set(base.tasks) == set(head.tasks) and None not in base.summary_keys.values()
        assert readers <= summarised == rekeyed < set(head.tasks)
        result = compare(base, head)
    assert [c.node for c in result.changes] == ["table.ods.orders"]
    assert {kind for kind, _ in asked} <= {"table", "defs"}
    assert ("table", "table.ods.orders") in asked
    assert {node for kind, node in asked if kind == "table"} == {"table.ods.orders"}
    # each task definition asked for is a task that reads the changed table
    assert {node for kind, node in asked if kind == "defs"} <= {i.node for i in result.impacts if i.relation == "direct"}
    assert os.listdir(tempfile.tempdir) == []  # the child removed its checkout


def test_a_revision_the_child_cannot_read_is_a_usage_error(shop_root):
    bogus = Revision("gone", "0" * 40)
    with ForkedSnapshot(shop_root.root, bogus, "", None, shop_root.ws) as side:
        with pytest.raises(UsageError, match=r"^cannot read revision 'gone': "):
            side.snapshot(Snapshot())


def test_a_child_that_dies_is_an_error_not_a_hang(shop_root):
    with pytest.raises(RuntimeError, match=r"the process taking the base revision stopped \(exit code -9\)"):
        with ForkedSnapshot(shop_root.root, resolve_revision(shop_root.root, "HEAD"), "", None, shop_root.ws) as side:
            os.kill(side._child.pid, signal.SIGKILL)
            side.snapshot(Snapshot())
    assert not side._child.is_alive()


def test_a_child_that_dies_after_the_snapshot_fails_the_next_fetch(shop_root):
    root = shop_root.ws.resolve()
    with pytest.raises(RuntimeError, match=r"the process taking the base revision stopped"):
        with ForkedSnapshot(shop_root.root, resolve_revision(shop_root.root, "HEAD"), "", None, root) as side:
            base = side.snapshot(Snapshot())
            os.kill(side._child.pid, signal.SIGKILL)
            side._child.join()
            base.tables["table.ods.orders"]


def test_leaving_early_stops_the_child_and_removes_its_checkout(shop_root, monkeypatch):
    temp = Path(tempfile.mkdtemp(dir=shop_root.root.parent))
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    with pytest.raises(KeyError):
        with ForkedSnapshot(shop_root.root, resolve_revision(shop_root.root, "HEAD"), "", None, shop_root.ws) as side:
            raise KeyError("the head failed to load")  # while the child is still taking the base
    assert not side._child.is_alive()
    assert list(temp.iterdir()) == []


def test_a_usage_error_in_the_head_stops_the_child(shop_root, impact, forks):
    shop_root.path("flinkx.yaml").write_text("engine: nope\n", encoding="utf-8")  # FX100 after the base has started
    result, _ = impact(shop_root, "--base", "HEAD")
    assert result.exit_code == 2 and "invalid flinkx.yaml" in result.stderr
    assert len(forks) == 1 and not forks[0]._child.is_alive()


def test_no_pickle_reaches_the_cache(shop_root, impact, forks):
    """What crossed the pipe stays in memory: the child's cache entries are JSON like the parent's."""
    rename_column(shop_root)
    impact(shop_root, "--base", "HEAD", "--fail-on", "never")
    assert len(forks) == 1
    cached = list((shop_root.ws / ".flinkx-cache").rglob("*"))
    assert cached and all(not p.is_file() or not p.read_bytes().startswith(b"\x80") for p in cached)


def test_no_process_to_be_had_takes_the_base_here(shop_root, impact, monkeypatch):
    def refuse(*args):
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(impact_command, "ForkedSnapshot", refuse)
    monkeypatch.setattr(impact_command, "can_take_forked", lambda: True)
    rename_column(shop_root)
    result, data = impact(shop_root, "--base", "HEAD", "--fail-on", "never")
    assert result.exit_code == 0 and [c["node"] for c in data["changes"]] == ["table.ods.orders"]


@pytest.mark.parametrize("scenario", [s for s in SCENARIOS if s.name in ("rename a column", "change a variable's value",
                                                                       "move a meta table file whose name: stays")],
                         ids=lambda s: s.name)
def test_reusing_the_heads_facts_changes_no_report(shop_root, impact, scenario):
    """With --no-cache no task has a summary key, so each side summarises every task itself."""
    scenario.change(shop_root)
    reused = _report(impact, shop_root, "--base", "HEAD")
    alone = _report(impact, shop_root, "--base", "HEAD", "--no-cache")
    assert reused == alone and reused["changes"]


@pytest.mark.parametrize("cache", ["cold cache", "--no-cache"])
def test_a_base_loaded_and_summarised_on_every_core_in_the_child(shop_root, impact, forks, monkeypatch, cache):
    """A base the caches lack (a first run in CI, a flinkx upgrade) is loaded and summarised in
    worker processes of the child, and the head's side in workers of the parent (the child was a
    daemon process once, and a daemon may not start any: an internal error on large workspaces).
    The thresholds are lowered so the fixture workspace needs the pools."""
    from flinkx_build import pipeline
    from flinkx_build.load import parallel

    monkeypatch.setattr(parallel, "THRESHOLD", 1)
    monkeypatch.setattr(pipeline, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(parallel, "CORES", 2)
    monkeypatch.setattr(pipeline, "CORES", 2)
    pools = []
    real_scheduler = pipeline.on_every_core

    def counted(*args, **kwargs):
        pools.append(os.getpid())
        return real_scheduler(*args, **kwargs)

    monkeypatch.setattr(pipeline, "on_every_core", counted)
    rename_column(shop_root)
    args = ["--no-cache"] if cache == "--no-cache" else []
    forked = _report(impact, shop_root, "--base", "HEAD", *args)
    assert len(forks) == 1 and forks[0]._child.exitcode == 0
    assert pools == [os.getpid()]  # the head's summaries, here (the child's pools are its own)
    monkeypatch.setattr(impact_command, "can_take_forked", lambda: False)
    serial = _report(impact, shop_root, "--base", "HEAD", *args)
    assert forked == serial and forked["changes"]


def test_the_child_takes_the_base_without_the_cycle_collector(shop_root, monkeypatch, tmp_path):
    # as `cli.run` does: off in this process, back on in every forked child
    gc.disable()
    os.register_at_fork(after_in_child=gc.enable)
    seen = tmp_path / "collector"
    real = forked_snapshot.static_snapshot

    def recording(session, shown_root):  # runs in the child
        seen.write_text("on" if gc.isenabled() else "off", encoding="utf-8")
        return real(session, shown_root)

    monkeypatch.setattr(forked_snapshot, "static_snapshot", recording)
    try:
        root = shop_root.ws.resolve()
        with ForkedSnapshot(shop_root.root, resolve_revision(shop_root.root, "HEAD"), "", None, root) as side:
            side.snapshot(Snapshot())
    finally:
        gc.enable()
    assert seen.read_text(encoding="utf-8") == "off"
