"""The model behind the language server: one `Session` per workspace, buffers linted against it.

An open buffer is linted exactly as `flinkx lint FILE` lints the file, with the
buffer's text in place of the file's and the workspace on disk as context: a
task through `lint_task` (sqlfluff's FX rules, then the resolver), a YAML file
through the loader. Sessions are reopened when a YAML file of the workspace
changes on disk, so a saved meta table is seen by every open task.
"""
from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.frontend.cache import ParseCache
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.hashing import sha256
from flinkx_build.lint.planner_pass import CODE as PLANNER_CODE
from flinkx_build.lint.planner_pass import PlannerPass
from flinkx_build.lint.run import lint_task
from flinkx_build.lint.run import lint_workspace
from flinkx_build.load.root import CONFIG_FILE
from flinkx_build.load.root import find_workspace
from flinkx_build.load.tables import load_function
from flinkx_build.load.tables import load_table
from flinkx_build.load.workspace import display_path
from flinkx_build.load.yaml_io import NO_CACHE
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.pipeline import Session
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Project
from flinkx_build.workspace_model import Task


@dataclass
class TaskAnalysis:
    """One task buffer, linted and resolved: what hover, definition and completion read."""

    session: Session
    task: Task  # the buffer's text, not the file's
    resolved: AnalysedTask
    diagnostics: list[Diagnostic]
    # statement index -> the last version of it that parsed: completion while a statement is half typed
    last_parsed: dict[int, AnalysedStatement] = field(default_factory=dict)

    @property
    def context(self) -> dict[str, str]:
        return self.session.context_for(self.task)

    @property
    def statements(self) -> list[ParsedStatement]:
        return [rs.parsed for rs in self.resolved.statements]


class Models:
    """Sessions by workspace root; not thread-safe: the server calls it from one worker thread."""

    def __init__(self, use_cache: bool = True, use_planner: bool | None = None) -> None:
        """`use_planner`: plan each analysed task on the target's warm planner too (FX301, as lint);
        by default unless $FLINKX_NO_PLANNER is set."""
        self.use_cache = use_cache
        self.use_planner = not os.environ.get("FLINKX_NO_PLANNER") if use_planner is None else use_planner
        self._planners: dict[Path, PlannerPass] = {}
        self._sessions: dict[Path, tuple[tuple, Session]] = {}
        self._last_parsed: dict[Path, dict[int, AnalysedStatement]] = {}

    def session_for(self, path: Path) -> Session | None:
        """The session of the workspace holding `path`, reopened if its YAML changed on disk."""
        try:
            root = find_workspace(path.parent)
        except UsageError:
            return None
        stamp = _yaml_fingerprint(root)
        cached = self._sessions.get(root)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            session = Session.open(root, use_cache=self.use_cache)
        except UsageError:
            return None
        # every keystroke is a new text: caching each parse would only fill the cache folder
        session.cache = ParseCache(None)
        self._sessions[root] = (stamp, session)
        old = self._planners.pop(root, None)
        if old is not None:
            old.close()
        return session

    def _planner_for(self, session: Session) -> PlannerPass | None:
        if not self.use_planner or session.workspace.config.lint.rules.get(PLANNER_CODE) is False:
            return None
        root = session.workspace.root
        if root not in self._planners:
            self._planners[root] = PlannerPass(session)
        return self._planners[root]

    def forget(self) -> None:
        self._sessions.clear()
        for planner in self._planners.values():
            planner.close()
        self._planners.clear()

    def analyse_task(self, path: Path, text: str) -> TaskAnalysis | None:
        session = self.session_for(path)
        if session is None:
            return None
        task = task_for(session, path, text)
        if task is None:
            return None
        linted = lint_task(session, task)
        resolved = session.analysed(task)
        last = self._last_parsed.setdefault(task.path.resolve(), {})
        last.update((rs.parsed.index, rs) for rs in resolved.statements if rs.parsed.syntax is None)
        diags = [d for d in linted.diagnostics if d.path == task.display_path]
        planner = self._planner_for(session)
        if planner is not None:  # the warm planner's verdict (FX301), cached by content like lint's
            found = session.workspace.config.lint.apply(planner.findings(task, linted.diagnostics))
            diags.extend(d for d in found if d.path == task.display_path)
        return TaskAnalysis(session, task, resolved, diags, last)

    def close(self, path: Path) -> None:
        self._last_parsed.pop(path.resolve(), None)

    def yaml_diagnostics(self, path: Path, text: str) -> list[Diagnostic]:
        """What `flinkx lint WS FILE.yaml` reports, for the buffer's text."""
        session = self.session_for(path)
        if session is None:
            return []
        path = path.resolve()  # the loader names files from the resolved root
        shown = display_path(path)
        try:
            on_disk = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            on_disk = None
        if on_disk == text:
            diags, _ = lint_workspace(session, [path])
            return [d for d in diags if d.path == shown]
        return _unsaved_yaml(session, path, shown, text)


def task_for(session: Session, path: Path, text: str) -> Task | None:
    """The task `path` is (a new file too), holding the buffer's text."""
    path = path.resolve()
    project = _project_of(session, path)
    if project is None or path.suffix != ".sql":
        return None
    tasks_dir = project.directory.resolve() / "tasks"
    if tasks_dir not in path.parents:
        return None
    name = path.relative_to(tasks_dir).with_suffix("").as_posix()
    known = project.tasks.get(name)
    if known is not None:
        return replace(known, text=text, content_hash=sha256(text))
    rel = path.relative_to(session.workspace.root.resolve()).as_posix()
    return Task(project.name, name, path, display_path(path), text, sha256(text), rel)


def _project_of(session: Session, path: Path) -> Project | None:
    for project in session.workspace.projects.values():
        if project.directory.resolve() in path.parents:
            return project
    return None


def _unsaved_yaml(session: Session, path: Path, shown: str, text: str) -> list[Diagnostic]:
    """A changed, unsaved YAML buffer: the loader's checks of that one file, on a shadow copy.

    The loader reads files, so the buffer is written to a private temporary
    folder (`shadow_copy`) and loaded from there under the real file's name. Meta tables and
    functions get every per-file check; project.yaml and flinkx.yaml get the
    YAML syntax check until they are saved (their key checks need the whole load).
    Any other YAML (a CI workflow, a pre-commit config) is not flinkx's to check.
    """
    ws = session.workspace
    project = _project_of(session, path)
    folder = project.directory.resolve() if project is not None else None
    if folder is not None and folder / "tables" in path.parents:
        kind = "table"
    elif folder is not None and folder / "functions" in path.parents:
        kind = "function"
    elif path == (ws.root / CONFIG_FILE).resolve() or (folder is not None and path == folder / "project.yaml"):
        kind = "header"
    else:
        return []
    diags: list[Diagnostic] = []
    try:
        with shadow_copy(path.name, text) as shadow:
            if kind == "table":
                load_table(ws, project, shadow, shown, diags, NO_CACHE)
            elif kind == "function":
                load_function(project, shadow, shown, diags, NO_CACHE)
            else:
                _, diags = load_yaml(shadow, shown)
                if path.name == CONFIG_FILE:
                    diags = [replace(d, code="FX100") for d in diags]
    except OSError:
        return []
    return [d for d in ws.config.lint.apply(diags) if d.path == shown]


@contextmanager
def shadow_copy(name: str, text: str) -> Iterator[Path]:
    """`text` in a new file named `name` (the loader falls back to the file's stem for a missing
    name), in a folder `mkdtemp` makes (0700, a fresh random name) and removes afterwards.

    Never a path in the workspace: a symlink committed where the copy would go (it was
    `.flinkx-cache/lsp/<name>`) made the editor's buffer overwrite whatever it pointed to."""
    with tempfile.TemporaryDirectory(prefix="flinkx-lsp-") as folder:
        shadow = Path(folder, name)
        fd = os.open(shadow, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with open(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        yield shadow


def _yaml_fingerprint(root: Path) -> tuple:
    """Names, sizes and modification times of the workspace's YAML files (cheap: stat only)."""
    entries = []
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        if rel == ".":
            dirs[:] = [d for d in dirs if d == "projects"]
        elif os.path.basename(folder) == "tasks":
            dirs[:] = []
            continue
        for name in files:
            if name.endswith((".yaml", ".yml")):
                try:
                    st = os.stat(os.path.join(folder, name))
                except OSError:
                    continue
                entries.append((rel, name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(entries))
