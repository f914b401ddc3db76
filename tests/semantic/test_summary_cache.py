"""Task summaries from the cache are the summaries a fresh resolution makes, and a change misses.

Every test compares against a session without any cache (`use_cache=False`),
which resolves every task from its text: a cached summary that differs from
it, or a change the cache does not notice, fails here.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flinkx_build.cache_entries import write_entry
from flinkx_build.pipeline import Session
from flinkx_build.cache_version import versioned_cache_root

EXAMPLE = Path(__file__).resolve().parents[2] / "example-workspace"


@pytest.fixture
def ws(tmp_path) -> Path:
    dest = tmp_path / "ws"
    shutil.copytree(EXAMPLE, dest, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return dest


def _summaries(root: Path, use_cache: bool = True) -> tuple[Session, dict]:
    session = Session.open(root, use_cache=use_cache)
    return session, {task.key: session.summary(task) for task in session.tasks()}


def _resolved_keys(session: Session) -> set[str]:
    return set(session._analysed)


def test_a_warm_session_resolves_nothing_and_gets_the_same_summaries(ws):
    _, first = _summaries(ws)
    session, second = _summaries(ws)
    _, fresh = _summaries(ws, use_cache=False)
    assert _resolved_keys(session) == set()  # every summary came from the cache
    assert second == fresh == first
    assert any(s.diagnostics for s in fresh.values()) or all(s.compiled for s in fresh.values())
    assert all(s.compiled for s in second.values())  # the example builds: compiled SQL is cached too


def test_a_changed_meta_table_misses_exactly_for_the_tasks_that_name_it(ws):
    _summaries(ws)
    table = ws / "projects/dim/tables/dim_user.yaml"
    table.write_text(table.read_text().replace("kind: stream", "kind: stream  # edited, and the line below moved", 1)
                     .replace("  - {name: user_name,", "\n  - {name: user_name,", 1))
    session, after = _summaries(ws)
    _, fresh = _summaries(ws, use_cache=False)
    naming = {t.key for t in session.tasks() if "dim_user" in t.text}
    assert naming and _resolved_keys(session) == naming
    assert after == fresh


def test_a_retyped_column_reaches_the_cached_findings(ws):
    _summaries(ws)
    table = ws / "projects/dim/tables/dim_user.yaml"
    text = table.read_text()
    assert "name: phone," in text
    # not the key: a primary key naming no column is the YAML's own error, and its readers then say nothing
    table.write_text(text.replace("name: phone,", "name: phone_no,", 1))
    _, after = _summaries(ws)
    _, fresh = _summaries(ws, use_cache=False)
    assert after == fresh
    assert any(d.code == "FX401" for s in after.values() for d in s.diagnostics)  # the readers now fail


def test_a_new_table_anywhere_misses_everything(ws):
    """A name can become ambiguous or resolve elsewhere: the name index is part of every key."""
    _summaries(ws)
    shutil.copy(ws / "projects/dim/tables/dim_shop.yaml", ws / "projects/dws/tables/dim_shop_copy.yaml")
    session, after = _summaries(ws)
    assert _resolved_keys(session) == {t.key for t in session.tasks()}
    assert after == _summaries(ws, use_cache=False)[1]


def test_an_edited_task_misses_only_itself(ws):
    _summaries(ws)
    task = ws / "projects/dws/tasks/order_stats_1m.sql"
    task.write_text(task.read_text() + "\n-- edited\n")
    session, after = _summaries(ws)
    assert _resolved_keys(session) == {"dws/order_stats_1m"}
    assert after == _summaries(ws, use_cache=False)[1]


def test_paths_follow_the_current_folder(ws, monkeypatch):
    monkeypatch.chdir(ws.parent)
    _, first = _summaries(ws)
    monkeypatch.chdir(ws / "projects")
    session, second = _summaries(ws)
    assert _resolved_keys(session) == set()
    assert second == _summaries(ws, use_cache=False)[1]
    assert {s.display_path for s in second.values()} != {s.display_path for s in first.values()}


def test_a_tampered_entry_is_a_miss(ws):
    _summaries(ws)
    entries = sorted((versioned_cache_root(ws, ".flinkx-cache") / "summaries").rglob("*.json"))
    assert entries
    for entry in entries:
        entry.write_bytes(entry.read_bytes().replace(b"FX", b"FY").replace(b"INSERT", b"DELETE"))
    session, after = _summaries(ws)
    assert _resolved_keys(session) == {t.key for t in session.tasks()}
    assert after == _summaries(ws, use_cache=False)[1]


def test_an_entry_of_the_wrong_shape_with_a_valid_hash_is_a_miss(ws):
    """Whoever can write the cache folder can write a well-formed entry: its values are still checked."""
    _summaries(ws)
    reshaped = 0
    for entry in sorted((versioned_cache_root(ws, ".flinkx-cache") / "summaries").rglob("*.json")):
        header = json.loads(entry.read_bytes())
        if header["data"]["column_lineage"]:
            header["data"]["column_lineage"][0] = {"target": 1}
            write_entry(entry, header["format"], header["version"], header["key"], header["data"])
            reshaped += 1
    assert reshaped
    session, after = _summaries(ws)
    assert len(_resolved_keys(session)) >= reshaped
    assert after == _summaries(ws, use_cache=False)[1]


def test_no_cache_writes_no_summaries(ws):
    _summaries(ws, use_cache=False)
    assert not (versioned_cache_root(ws, ".flinkx-cache") / "summaries").exists()


@pytest.mark.parametrize("where", ["root", "parent", "below", "elsewhere"])
def test_shown_paths_are_display_paths_from_any_current_folder(tmp_path, monkeypatch, where):
    from flinkx_build.load.workspace import display_path
    from flinkx_build.semantic.summary import _Paths

    root = tmp_path / "ws"
    (root / "projects" / "p").mkdir(parents=True)
    (tmp_path / "other").mkdir()
    cwd = {"root": root, "parent": tmp_path, "below": root / "projects", "elsewhere": tmp_path / "other"}[where]
    monkeypatch.chdir(cwd)
    paths = _Paths(root)
    for rest in ("projects/p/t.sql", "flinkx.yaml", "../outside.sql", "projects/../projects/p/u.sql"):
        assert paths.show("ws:" + rest) == display_path(root / rest), rest
