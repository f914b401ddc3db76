"""The load memo: a warm load gives exactly what a cold one does, and follows every input."""
from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

import pytest

from flinkx_build.cache_entries import read_entry
from flinkx_build.cache_entries import write_entry
from flinkx_build.load import memo as memo_module
from flinkx_build.load.memo_codec import NotStorable
from flinkx_build.load.memo_codec import decode
from flinkx_build.load.memo_codec import encode
from flinkx_build.load.workspace import load_workspace
from flinkx_build.workspace_model import Loc
from flinkx_build.workspace_model import MetaTable
from flinkx_build.cache_version import versioned_cache_root
from tests.conftest import EXAMPLE

FILES = {
    "flinkx.yaml": "engine: flink\nvariables:\n  env: prod\nsecrets: [db_password]\n",
    "projects/p/project.yaml": "name: p\nvariables:\n  topic: orders\n",
    "projects/p/tables/src.yaml": """\
        name: src
        type: kafka
        description: the orders
        columns:
          - {name: id, type: BIGINT, comment: "the id"}
          - {name: ts, type: "TIMESTAMP(3)"}
          - {name: topic, type: STRING, header: true}
        primary_key: [id]
        locked: [topic]
        with:
          connector: kafka
          topic: "${topic}_${env}"
          password: "${db_password}"
        stream:
          with: {scan.startup.mode: latest-offset}
        batch:
          with: {scan.startup.mode: earliest-offset}
        """,
    # findings of every kind the reader makes, so they are stored and given back too
    "projects/p/tables/odd.yaml": """\
        name: odd
        type: kafka
        colour: red
        columns:
          - {name: id, type: BIGNUM}
          - {name: id, type: INT}
        primary_key: [nope]
        with:
          connector: kafka
          topic: ${missing}
          retries: 3
        """,
    "projects/p/tables/broken.yaml": "columns: [a\n",
    "projects/p/tables/sub/deep.yml": "type: kafka\ncolumns:\n  - {name: a, type: INT}\n",
    "projects/p/functions/mask.yaml": "class: com.x.Mask\nreturns: STRING\nflavour: sour\n",
    "projects/p/functions/bad.yaml": "name: ../x\nclass: com.x.Y\nreturns: STRING\n",
    "projects/p/tasks/t.sql": "INSERT INTO src SELECT * FROM src;\n",
}


@pytest.fixture
def ws(make_workspace):
    return make_workspace(FILES)


def _contents(root: Path, use_cache: bool = True):
    workspace, diags = load_workspace(root, use_cache)
    projects = {name: (p.tables, p.functions, p.tasks, p.unloadable_tables) for name, p in workspace.projects.items()}
    return projects, diags


def _memo(root: Path, folder: str = "p") -> memo_module.LoadMemo:
    """The memo of a project folder's meta tables and functions."""
    return memo_module.LoadMemos(versioned_cache_root(root, ".flinkx-cache")).of(folder)


def _memo_file(root: Path) -> Path:
    path = _memo(root).path
    assert path is not None
    return path


def test_a_warm_load_equals_a_cold_one_and_reads_no_yaml(ws):
    cold = _contents(ws, use_cache=False)
    assert cold[1], "the fixture makes findings"
    assert _contents(ws) == cold  # fills the memo
    written = _memo_file(ws).read_bytes()
    shutil.rmtree(versioned_cache_root(ws, ".flinkx-cache") / "yaml")
    assert _contents(ws) == cold
    # every table, function and project.yaml came from the memo: no YAML was parsed (and cached) again
    assert len(list((versioned_cache_root(ws, ".flinkx-cache") / "yaml").rglob("*.json"))) == 0
    assert _memo_file(ws).read_bytes() == written  # a load that changed nothing does not rewrite it
    tables, functions, _, unloadable = cold[0]["p"]
    assert tables["src"][0].options["topic"] == "orders_prod" and tables["src"][0].options["password"] == "${db_password}"
    assert "broken" in unloadable and "mask" in functions and "x" not in functions


def test_the_example_workspace_reads_back_from_the_memo_exactly(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    cold = _contents(root, use_cache=False)
    _contents(root)
    assert _contents(root) == cold
    entries = [entry for folder in (root / "projects").iterdir()
               for entry in json.loads(_memo(root, folder.name).path.read_bytes())["data"]["entries"]]
    tables_and_functions = [*root.glob("projects/*/tables/**/*.yaml"), *root.glob("projects/*/functions/**/*.yaml")]
    assert len(entries) == len(tables_and_functions)  # every table and function, each in its project folder's memo


def test_an_edited_table_is_read_again(ws):
    _contents(ws)
    path = ws / "projects/p/tables/src.yaml"
    path.write_text(path.read_text().replace("{name: ts, type: \"TIMESTAMP(3)\"}", "{name: ts, type: \"TIMESTAMP(6)\"}"))
    warm = _contents(ws)
    assert warm == _contents(ws, use_cache=False)
    assert warm[0]["p"][0]["src"][0].column("ts").type == "TIMESTAMP(6)"


def test_an_edited_task_rewrites_the_small_memo_of_task_files_not_the_memo_of_tables(ws):
    _contents(ws)
    tasks_memo = versioned_cache_root(ws, ".flinkx-cache") / "load" / memo_module.TASKS_FILE
    written = _memo_file(ws).read_bytes()
    checked = tasks_memo.read_bytes()
    task = ws / "projects/p/tasks/t.sql"
    task.write_text(task.read_text() + "-- edited\n")
    assert _contents(ws) == _contents(ws, use_cache=False)
    assert _memo_file(ws).read_bytes() == written  # a task's limit check is not worth 3 MB at 1,000 tasks
    assert tasks_memo.read_bytes() != checked  # but is kept: the next load does not check it again
    again = tasks_memo.read_bytes()
    _contents(ws)
    assert tasks_memo.read_bytes() == again


def test_a_changed_variable_renders_again(ws):
    _contents(ws)
    (ws / "projects/p/project.yaml").write_text("name: p\nvariables:\n  topic: refunds\n")
    warm = _contents(ws)
    assert warm[0]["p"][0]["src"][0].options["topic"] == "refunds_prod"
    assert warm == _contents(ws, use_cache=False)
    (ws / "flinkx.yaml").write_text("engine: flink\nvariables:\n  env: prod\nsecrets: [db_password, topic]\n")
    secret = _contents(ws)
    assert secret[0]["p"][0]["src"][0].options["topic"] == "${topic}_prod"  # a secret stays a placeholder
    assert secret == _contents(ws, use_cache=False)


def test_a_renamed_project_or_file_is_a_miss(ws):
    _contents(ws)
    (ws / "projects/p/tables/sub/deep.yml").rename(ws / "projects/p/tables/sub/deeper.yml")  # the name comes from the stem
    (ws / "projects/p/project.yaml").write_text("name: q\nvariables:\n  topic: orders\n")
    warm = _contents(ws)
    assert "deeper" in warm[0]["q"][0] and warm[0]["q"][0]["src"][0].project == "q"
    assert warm == _contents(ws, use_cache=False)


def test_the_shown_path_follows_the_current_folder(ws, monkeypatch):
    _contents(ws)
    for cwd in (ws, ws / "projects", ws.parent):
        monkeypatch.chdir(cwd)
        warm = _contents(ws)
        assert warm == _contents(ws, use_cache=False)
        prefix = {ws: "projects/p/", ws / "projects": "p/", ws.parent: "ws/projects/p/"}[cwd]
        assert warm[0]["p"][0]["src"][0].loc == Loc(prefix + "tables/src.yaml", 1, 1)
        assert {d.path for d in warm[1]} >= {prefix + "tables/odd.yaml", prefix + "functions/mask.yaml"}


def test_both_revisions_stay_in_the_memo(ws):
    """`flinkx impact` loads a base revision and the working tree in turn: both hit."""
    path = ws / "projects/p/tables/src.yaml"
    base, work = path.read_text(), path.read_text().replace("the orders", "the orders, edited")
    for text in (base, work):
        path.write_text(text)
        _contents(ws)
    written = _memo_file(ws).read_bytes()
    for text in (base, work, base):
        path.write_text(text)
        assert _contents(ws) == _contents(ws, use_cache=False)
        assert _memo_file(ws).read_bytes() == written


def test_a_revision_in_another_folder_can_share_the_memo(ws, tmp_path, monkeypatch):
    """As `flinkx impact` loads its base revision: a checkout elsewhere, the working tree's memo."""
    monkeypatch.chdir(tmp_path)
    _contents(ws)
    written = _memo_file(ws).read_bytes()
    base = tmp_path / "checkout" / "ws"
    shutil.copytree(ws, base, ignore=shutil.ignore_patterns(".flinkx-cache"))
    shared = load_workspace(base, use_cache=False, memo_cache=ws / ".flinkx-cache")
    cold = load_workspace(base, use_cache=False)
    assert shared == cold and shared[0].projects["p"].tables["src"][0].loc.path == "checkout/ws/projects/p/tables/src.yaml"
    assert _memo_file(ws).read_bytes() == written and not (base / ".flinkx-cache").exists()


def test_no_memo_without_the_cache(ws):
    _contents(ws, use_cache=False)
    assert not _memo_file(ws).exists()
    _contents(ws)
    before = _memo_file(ws).read_bytes()
    (ws / "projects/p/tables/src.yaml").write_text(FILES["projects/p/tables/src.yaml"].replace("the orders", "x"))
    _contents(ws, use_cache=False)
    assert _memo_file(ws).read_bytes() == before  # --no-cache neither reads nor writes it


def _valid_memo(root: Path, entries: dict) -> None:
    write_entry(_memo_file(root), memo_module.FORMAT, memo_module.VERSION, _memo(root).key, {"gen": 1, "entries": entries})


def _stored(root: Path) -> dict:
    return json.loads(_memo_file(root).read_bytes())["data"]["entries"]


@pytest.mark.parametrize("tamper", ["flip a byte", "pickle", "other version", "not json", "wrong shapes", "planted names"])
def test_a_tampered_or_foreign_memo_is_ignored(ws, tamper):
    cold = _contents(ws, use_cache=False)
    _contents(ws)
    path = _memo_file(ws)
    raw = path.read_bytes()
    if tamper == "flip a byte":
        at = raw.index(b"orders_prod")
        path.write_bytes(raw[:at] + b"ORDERS" + raw[at + 6:])
    elif tamper == "pickle":
        path.write_bytes(pickle.dumps({"format": memo_module.FORMAT}))
    elif tamper == "other version":
        entry = json.loads(raw)
        write_entry(path, memo_module.FORMAT, memo_module.VERSION + 1, entry["key"], entry["data"])
    elif tamper == "not json":
        path.write_bytes(raw[: len(raw) // 2])
    elif tamper == "wrong shapes":  # a valid checksum over entries of every wrong shape
        entries = _stored(ws)
        bad = [[0, None], [0, [1, 2]], [0, [[1] * 17, []]], [0, [None, [["not null", 1, 1, "FX1", "m", "", "error", False]]]],
               [0, "sql-ok"], [0, [None, "x"]]]
        _valid_memo(ws, {key: bad[i % len(bad)] for i, key in enumerate(entries)})
    else:  # entries with the right keys and shapes, but what the loader refuses or never makes
        entries = _stored(ws)
        for entry in entries.values():
            if isinstance(entry[1], list) and entry[1][0] is not None and len(entry[1][0]) > 3:  # not a project header
                entry[1][0][1] = "../../etc"  # MetaTable.name / Function.name (headers: test_project_memo.py)
        _valid_memo(ws, entries)
    assert _contents(ws) == cold
    # the memo written over it is a good one again, and used
    again = read_entry(path, memo_module.FORMAT, memo_module.VERSION, _memo(ws).key)["entries"]
    assert {k: v[1] for k, v in again.items()} == {k: v[1] for k, v in json.loads(raw)["data"]["entries"].items()}
    assert _contents(ws) == cold


def test_a_memo_linked_out_of_the_cache_folder_is_neither_read_nor_written(ws, tmp_path):
    outside = tmp_path / "outside.json"
    outside.write_text("{}")
    headers = versioned_cache_root(ws, ".flinkx-cache") / "load" / memo_module.HEADERS_FILE
    for planted in (headers, _memo_file(ws)):
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.symlink_to(outside)
    assert _contents(ws) == _contents(ws, use_cache=False)
    assert outside.read_text() == "{}" and headers.is_symlink()  # (the folder's memo is written anew beside the link)
    # and a linked folder
    shutil.rmtree(versioned_cache_root(ws, ".flinkx-cache") / "load")  # (the memo of task files too)
    (tmp_path / "elsewhere").mkdir()
    (versioned_cache_root(ws, ".flinkx-cache") / "load").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert _contents(ws) == _contents(ws, use_cache=False)
    assert not list((tmp_path / "elsewhere").iterdir())


def test_a_result_about_another_file_is_not_stored():
    loc = Loc("a.yaml", 2, 3)
    table = MetaTable("p", "t", "kafka", "stream", [], [], {}, {"topic": loc}, [], {}, {}, "", loc, "h")
    assert decode(json.loads(json.dumps(encode(table, "a.yaml", MetaTable))), "b.yaml", MetaTable).loc == Loc("b.yaml", 2, 3)
    with pytest.raises(NotStorable):
        encode(table, "elsewhere.yaml", MetaTable)
    table.option_locs["topic"] = Loc("other.yaml", 1, 1)
    with pytest.raises(NotStorable):
        encode(table, "a.yaml", MetaTable)


def test_a_linked_table_inside_the_workspace_is_read_and_one_leaving_it_is_refused(ws, tmp_path, monkeypatch):
    monkeypatch.chdir(ws)
    shared = ws / "shared.yaml"
    shared.write_text("type: kafka\ncolumns:\n  - {name: a, type: INT}\n")
    (ws / "projects/p/tables/linked.yaml").symlink_to(shared)
    outside = tmp_path / "secret.yaml"
    outside.write_text("type: kafka\ncolumns:\n  - {name: password, type: STRING}\n")
    (ws / "projects/p/tables/leak.yaml").symlink_to(outside)
    (ws / "projects/p/tables/dir").symlink_to(tmp_path, target_is_directory=True)
    for _ in range(2):
        projects, diags = _contents(ws)
        assert "linked" in projects["p"][0] and "leak" not in projects["p"][0]
        assert sorted(d.path for d in diags if d.code == "FX187") == ["projects/p/tables/dir", "projects/p/tables/leak.yaml"]


def test_a_planted_finding_is_masked_and_escaped_like_any_other(ws):
    """A memo in a pull request is the author's text: it still cannot break the one-line format."""
    _contents(ws)
    raw = _memo_file(ws).read_bytes()
    assert b"unknown key 'colour'" in raw
    entries = json.loads(raw)["data"]["entries"]
    planted = json.loads(json.dumps(entries).replace("unknown key 'colour'", "unknown key \\u001b[2Jcolour"))
    _valid_memo(ws, planted)
    _, diags = _contents(ws)
    shown = [d for d in diags if "colour" in d.message]
    assert shown and all("[2J" in d.message for d in shown), shown  # read from the planted memo
    assert all("\x1b" not in d.message and d.message.isprintable() for d in shown), shown


def test_a_cold_load_of_many_tables_on_every_core_equals_a_serial_one(make_workspace):
    from flinkx_build.load.parallel import THRESHOLD

    files = dict(FILES)
    for n in range(THRESHOLD + 6):
        files[f"projects/p/tables/many/t{n:03d}.yaml"] = FILES["projects/p/tables/src.yaml"].replace("name: src", f"name: t{n:03d}")
    files["projects/p/tables/many/t000.yaml"] += "colour: blue\n"  # a finding from a worker, too
    root = make_workspace(files)
    cold = _contents(root)  # the memo is empty: the workers load the tables
    serial = _contents(root, use_cache=False)
    assert cold == serial
    assert any("colour" in d.message and "t000" in d.path for d in cold[1])
    assert _contents(root) == serial  # and the memo the parent wrote serves the next load


def test_a_cold_load_of_many_small_projects_parses_their_tables_on_every_core(make_workspace, tmp_path, monkeypatch):
    """No project holds THRESHOLD tables, all of them together do: they go to one pool of workers
    (each project alone never reached it, and 400 small projects loaded on one core)."""
    from flinkx_build.incremental.scheduler import CORES
    from flinkx_build.incremental.scheduler import can_fork
    from flinkx_build.load import parallel
    from flinkx_build.load.parallel import THRESHOLD

    if CORES < 2 or not can_fork():
        pytest.skip("the workers run only with two cores and fork")
    files = dict(FILES)
    for n in range(THRESHOLD + 6):
        project = f"q{n // 3:02d}"
        files[f"projects/{project}/project.yaml"] = f"name: {project}\n"
        files[f"projects/{project}/tables/t{n:03d}.yaml"] = FILES["projects/p/tables/src.yaml"].replace("name: src", f"name: t{n:03d}")
    files["projects/q00/tables/t000.yaml"] += "colour: blue\n"  # a finding from a worker, in its project's order
    root = make_workspace(files)
    loaders = tmp_path / "loaders"
    real = parallel.load_table

    def recorded(*args, **kwargs):
        with open(loaders, "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()}\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(parallel, "load_table", recorded)
    cold = _contents(root)  # the memo is empty
    pids = set(loaders.read_text(encoding="utf-8").split())
    assert pids and str(os.getpid()) not in pids  # every one of them loaded by a worker
    assert len(loaders.read_text(encoding="utf-8").split()) >= THRESHOLD + 6
    assert cold == _contents(root, use_cache=False)  # the same tables and findings, in the same order
    assert any("colour" in d.message and "t000" in d.path for d in cold[1])


def test_a_load_of_some_projects_keeps_the_other_projects_task_checks(tmp_path):
    """A scoped load (lint FILE, an incremental build) reads the task files of a few projects: the limit checks of
    every other task stay in the memo (they were pruned to the few it used, and checked again by the next whole load)."""
    from flinkx_build.load.workspace import Only

    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    load_workspace(root)
    tasks = versioned_cache_root(root, ".flinkx-cache") / "load" / memo_module.TASKS_FILE
    checked = set(read_entry(tasks, memo_module.TASK_LIMITS.format, memo_module.TASK_LIMITS.version, memo_module.salt())["entries"])
    task = root / "projects/dws/tasks/order_stats_1m.sql"
    for edit in range(memo_module.KEEP_WRITES + 1):  # more writes than an unused entry lives through
        task.write_text(task.read_text() + f"-- edit {edit}\n")
        load_workspace(root, only=Only(frozenset({"dws"}), frozenset()))
    after = set(read_entry(tasks, memo_module.TASK_LIMITS.format, memo_module.TASK_LIMITS.version, memo_module.salt())["entries"])
    assert len(checked) == len(list(root.glob("projects/*/tasks/**/*.sql")))
    assert checked <= after and len(after) == len(checked) + memo_module.KEEP_WRITES + 1  # each edit one more, none lost
