"""`flinkx build`: the parses of the tasks edited since the last build start before the meta tables load.

A build that changed one task waits for one thing it cannot make itself: that
task's parse, in the parser process (`frontend/worker.py`). Sent when the
summaries show which tasks changed, after the load, the parse ended after
everything else was ready. A task file written
after the build folder was (its marker's mtime) is very likely one of them, and
its parse needs only its text and its project's variables, known once the
project.yaml files are read. So the build hands `start_parses` to the loader
(`load_workspace(on_projects=...)`), as `flinkx lint FILE` does with its rule
passes (`lint/early.py`).

It is a guess, and a guess can only cost CPU: `Session.parsing_ahead` takes a
parse started here only for a job equal to the one it would send
(`ParserProcess.take_or_submit`), and a task whose parse is cached is not
started. At most MAX_EARLY files: more than that (a checkout, a first build)
and the build parses on every core anyway.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from flinkx_build.emit.folder import MARKER
from flinkx_build.frontend.cache import ParseCache
from flinkx_build.frontend.worker import ParserProcess
from flinkx_build.frontend.worker import parse_text
from flinkx_build.load.memo import LoadMemo
from flinkx_build.load.workspace import display_path
from flinkx_build.load.workspace import read_task_file
from flinkx_build.workspace_model import Workspace

MAX_EARLY = 4


def _last_build_time(out_dir: Path) -> int | None:
    """When the build folder was last written (its marker's mtime, ns), or None when there is none."""
    try:
        return os.lstat(out_dir / MARKER).st_mtime_ns
    except OSError:
        return None


def edited_since(folder: Path, since_ns: int, limit: int) -> list[Path] | None:
    """The `.sql` files below `folder` modified after `since_ns` (no link is followed), or None when there are more than `limit`."""
    found: list[Path] = []
    pending = [str(folder)]
    while pending:
        try:
            with os.scandir(pending.pop()) as scan:
                entries = list(scan)
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                edited = entry.name.endswith(".sql") and entry.is_file(follow_symlinks=False) and \
                    entry.stat(follow_symlinks=False).st_mtime_ns > since_ns
            except OSError:  # gone meanwhile: the loader will say what it finds
                continue
            if edited:
                found.append(Path(entry.path))
                if len(found) > limit:
                    return None
    return found


def early_parses(parser: ParserProcess | None, out_dir: Path) -> Callable[[Workspace], None] | None:
    """The loader's `on_projects` callback that starts them, or None when there is no parser process or no previous build."""
    since = _last_build_time(out_dir)
    if parser is None or since is None:
        return None

    def start(ws: Workspace) -> None:
        try:
            start_parses(parser, ws, since)
        except Exception:  # noqa: BLE001 - a guess never fails a build: the parse is then made when it is asked for
            pass
    return start


def start_parses(parser: ParserProcess, ws: Workspace, since_ns: int) -> None:
    cache = ParseCache(ws.cache_root)
    started = 0
    for project in ws.projects.values():
        edited = edited_since(project.directory / "tasks", since_ns, MAX_EARLY - started)
        if edited is None:
            return
        context = ws.context_for(project.name)
        for path in edited:
            text, _ = read_task_file(path, display_path(path), LoadMemo(None))  # what the loader refuses is not started
            if text is None or cache.has(ParseCache.key(text, context)):
                continue
            try:
                parser.submit_ahead(parse_text, (text, context))
            except RuntimeError:  # the parser process has died: the parse is made later, here
                return
            started += 1
