"""A build after an edit of task files alone makes only those tasks (`workspace_build/incremental_build.py`) and
writes what a whole build of the same files writes, byte for byte, and says what it says.

Each case builds the example workspace, edits it, and builds again; a copy of the
edited workspace is then built whole, with no cache, and the two build folders and
outputs are compared. Whether the incremental path answered is recorded: an edit of a
meta table, a function or a project.yaml, a cycle, and a hint that searches every
project must be made whole, and still give the same.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from flinkx_build.cli import main
from flinkx_build.commands import build as build_command
from flinkx_build.errors import WorkspaceErrors
from tests.conftest import EXAMPLE

TASK = "projects/dws/tasks/order_stats_1m.sql"


@pytest.fixture
def answered(monkeypatch) -> list[bool]:
    """For each build that ran: whether the incremental path made it."""
    runs: list[bool] = []
    real = build_command._incremental

    def recorded(*args, **kwargs):
        try:
            made = real(*args, **kwargs)
        except WorkspaceErrors:  # it answered: with the findings that stop the build
            runs.append(True)
            raise
        runs.append(made)
        return made

    monkeypatch.setattr(build_command, "_incremental", recorded)
    return runs


def _build(ws: Path, monkeypatch, *args: str) -> tuple[int, list[str]]:
    monkeypatch.chdir(ws)
    result = CliRunner().invoke(main, ["build", ".", *args], catch_exceptions=False)
    lines = [line for line in (result.stdout + result.stderr).splitlines() if not line.startswith("flinkx: built ")]
    return result.exit_code, lines


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _append(rel: str, text: str) -> Callable[[Path], None]:
    return lambda ws: (ws / rel).write_text((ws / rel).read_text(encoding="utf-8") + text, encoding="utf-8")


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(ws: Path) -> None:
        text = (ws / rel).read_text(encoding="utf-8")
        assert old in text, old
        (ws / rel).write_text(text.replace(old, new), encoding="utf-8")
    return edit


def _add_task(ws: Path) -> None:
    (ws / "projects/dws/tasks/more").mkdir()
    shutil.copy(ws / TASK, ws / "projects/dws/tasks/more/copy_of_stats.sql")


def _remove_task(ws: Path) -> None:
    (ws / "projects/dws/tasks/quick_refunds.sql").unlink()


def _shared_sink(ws: Path) -> None:  # a new task of dwd writes what dws's order_stats_1m writes (FX470, FX471 on both)
    text = (ws / TASK).read_text(encoding="utf-8").replace("INSERT INTO dws_order_stats_1m", "INSERT INTO dws.dws_order_stats_1m")
    (ws / "projects/dwd/tasks/copy_of_stats.sql").write_text(text, encoding="utf-8")


CASES: dict[str, tuple[Callable[[Path], None], bool]] = {
    # an edit, and whether the incremental path can answer it
    "a comment in a task": (_append(TASK, "-- a comment\n"), True),
    "a task's query": (_replace(TASK, "COUNT(DISTINCT user_id)", "COUNT(user_id)"), True),
    "an error in a task": (_replace(TASK, "COUNT(DISTINCT order_id)", "COUNT(DISTINCT no_such_column)"), True),
    "an error silenced by noqa": (_replace(TASK, "COUNT(DISTINCT order_id)                 AS order_cnt,",
                                           "COUNT(DISTINCT no_such_column) AS order_cnt, -- noqa: FX401"), True),
    "a task added in a new folder": (_add_task, True),
    "a task removed": (_remove_task, True),
    "a sink and a group shared with a task not loaded": (_shared_sink, True),
    "a meta table": (_replace("projects/dws/tables/dws_order_stats_1m.yaml", "window_start", "window_begin"), False),
    "a project's variables": (_append("projects/dwd/project.yaml", "  extra_variable: x\n"), False),
    "an unknown table (its hint searches every project)": (_replace(TASK, "TABLE dwd.dwd_orders,", "TABLE dwd.dwd_order,"), False),
    # FX140's hint names the project that has the function ("did you mean 'dim:mask_phone'?"), which is not loaded here
    "a function asked of the wrong project (its hint searches every project)": (
        _replace(TASK, "COUNT(DISTINCT user_id)                  AS buyer_cnt,", "COUNT(DISTINCT dwd:mask_phone(user_id)) AS buyer_cnt,"), False),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_an_edit_builds_what_a_whole_build_of_it_builds(tmp_path, monkeypatch, answered, case):
    edit, incremental = CASES[case]
    ws = shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    assert _build(ws, monkeypatch)[0] == 0  # whole, and the record of it
    edit(ws)
    code, lines = _build(ws, monkeypatch)
    assert answered[-1] is incremental
    whole = shutil.copytree(ws, tmp_path / "whole", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    assert _build(whole, monkeypatch) == (code, lines)
    if code == 0:
        assert _tree(ws / "build") == _tree(whole / "build")
        runs = len(answered)
        assert _build(ws, monkeypatch) == (code, lines) and len(answered) == runs  # nothing changed: replayed
        # and the next edit still follows from the record this build left
        _append(TASK, "-- once more\n")(ws)
        _append(TASK, "-- once more\n")(whole)
        again = _build(ws, monkeypatch)
        assert answered[-1] is True
        shutil.rmtree(whole / "build")
        shutil.rmtree(whole / ".flinkx-cache")
        assert _build(whole, monkeypatch) == again and _tree(ws / "build") == _tree(whole / "build")


def test_a_fixed_error_is_built_from_the_record_of_the_last_good_build(tmp_path, monkeypatch, answered):
    ws = shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    assert _build(ws, monkeypatch)[0] == 0
    before = _tree(ws / "build")
    _replace(TASK, "COUNT(DISTINCT order_id)", "COUNT(DISTINCT no_such_column)")(ws)
    assert _build(ws, monkeypatch)[0] == 1 and answered[-1] is True
    assert _tree(ws / "build") == before  # a failed build writes nothing
    _replace(TASK, "COUNT(DISTINCT no_such_column)", "COUNT(DISTINCT order_id)")(ws)
    assert _build(ws, monkeypatch)[0] == 0 and _tree(ws / "build") == before


def test_an_edited_output_makes_the_build_whole(tmp_path, monkeypatch, answered):
    ws = shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    assert _build(ws, monkeypatch)[0] == 0
    before = _tree(ws / "build")
    (ws / "build/dim/sync_dim_user.sql").write_text("-- tampered\n", encoding="utf-8")
    _append(TASK, "-- a comment\n")(ws)
    assert _build(ws, monkeypatch)[0] == 0 and answered[-1] is False  # the folder is not the one recorded
    after = _tree(ws / "build")
    assert after["dim/sync_dim_user.sql"] == before["dim/sync_dim_user.sql"]


def test_verbose_says_which_files_it_wrote_and_which_it_kept(tmp_path, monkeypatch, answered):
    ws = shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    assert _build(ws, monkeypatch)[0] == 0
    _append(TASK, "-- a comment\n")(ws)
    code, lines = _build(ws, monkeypatch, "-v")
    assert code == 0 and answered[-1] is True
    said: dict[str, list[str]] = {"wrote": [], "unchanged": []}
    for line in lines:
        verb, _, path = line.partition(" ")
        if verb in said:
            said[verb].append(Path(path).relative_to(ws / "build").as_posix())
    assert said["wrote"] == ["dws/order_stats_1m.sql"]  # the one task edited
    others = sorted(rel for rel in _tree(ws / "build") if rel.endswith(".sql") and rel != "dws/order_stats_1m.sql")
    assert said["unchanged"] == others  # every other task's file, kept
