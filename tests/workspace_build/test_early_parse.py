"""A build starts the parses of the tasks edited since the last build before the tables load (workspace_build/early_parse.py)."""
from __future__ import annotations

import os

from flinkx_build.emit.folder import MARKER
from flinkx_build.frontend.worker import ParserProcess
from flinkx_build.frontend.worker import parse_text
from flinkx_build.frontend.worker import warm_parser
from flinkx_build.pipeline import Session
from flinkx_build.workspace_build.compile_all import compile_workspace
from flinkx_build.workspace_build.early_parse import MAX_EARLY
from flinkx_build.workspace_build.early_parse import early_parses
from flinkx_build.workspace_build.early_parse import edited_since
from tests.frontend.test_worker import _fresh
from tests.frontend.test_worker import _workspace


def _age(path, seconds: int = 100) -> None:
    info = os.stat(path)
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns - seconds * 10**9))


def test_only_files_written_after_the_mark_are_found_and_no_link_is_followed(tmp_path):
    tasks = tmp_path / "tasks"
    (tasks / "sub").mkdir(parents=True)
    for name in ("old.sql", "sub/new.sql", "new.txt", "sub/older.sql"):
        (tasks / name).write_text("SELECT 1;\n")
    _age(tasks / "old.sql")
    _age(tasks / "sub/older.sql", 200)
    since = os.stat(tasks / "old.sql").st_mtime_ns + 1
    (tasks / "linked.sql").symlink_to(tasks / "sub/new.sql")
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "x.sql").write_text("SELECT 2;\n")
    (tasks / "linked_folder").symlink_to(outside, target_is_directory=True)
    assert edited_since(tasks, since, 5) == [tasks / "sub/new.sql"]


def test_more_edited_files_than_the_limit_is_no_guess(tmp_path):
    for index in range(MAX_EARLY + 1):
        (tmp_path / f"{index}.sql").write_text("SELECT 1;\n")
    assert edited_since(tmp_path, 0, MAX_EARLY) is None
    assert len(edited_since(tmp_path, 0, MAX_EARLY + 1)) == MAX_EARLY + 1


def _an_edited_task_is_parsed_before_the_tables_load_and_the_build_takes_it(root):
    out = root / "build"
    out.mkdir()
    (out / MARKER).write_text("flinkx build folder\n")
    _age(out / MARKER)
    for task in (root / "projects/p/tasks").glob("*.sql"):
        _age(task, 200)  # older than the last build: not a guess
    edited = root / "projects/p/tasks/t.sql"
    edited.write_text(edited.read_text() + "-- edited\n")
    process = ParserProcess.start(warm_parser)
    assert process is not None
    started = []
    start = early_parses(process, out)
    assert start is not None

    def early(ws):
        assert not ws.projects["p"].tables  # (before the meta tables load)
        start(ws)
        started.append(process.waiting_ahead)

    try:
        session = Session.open(root, parser=process, on_projects=early)
        built = compile_workspace(session, [])
        assert started == [1] and process.waiting_ahead == 0  # started ahead, then taken by the build
    finally:
        process.close()
    task = next(t for t in session.tasks() if t.name == "t")
    assert session.parsed(task) == parse_text((task.text, session.context_for(task)))
    assert built.outputs == compile_workspace(Session.open(root, use_cache=False), []).outputs


def test_an_edited_task_is_parsed_before_the_tables_load_and_the_build_takes_it(make_workspace):
    root = _workspace(make_workspace)
    (root / "projects/p/tasks/u.sql").write_text("INSERT INTO dst SELECT id, name FROM src;\n")
    _fresh(_an_edited_task_is_parsed_before_the_tables_load_and_the_build_takes_it, root)


def test_no_previous_build_or_no_parser_process_is_no_guess(tmp_path):
    assert early_parses(None, tmp_path) is None
    assert early_parses(None, tmp_path / "missing") is None
