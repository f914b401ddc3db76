"""A `flinkx build` with nothing changed: print what the last identical build printed, write nothing.

The key and its rules are `flinkx_build.run_memo`'s. A build is replayed only
when the build folder (or, with --check, nothing) is exactly as that build
left it; otherwise the build runs in full. Failed builds are never stored.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from flinkx_build import run_memo
from flinkx_build.emit.folder import MARKER
from flinkx_build.errors import Diagnostic

WRITTEN_EVERY_TIME = (MARKER, "manifest.json")  # what every build writes anew beside its task files


@dataclass(frozen=True)
class BuildMemo:
    root: Path
    cache_dir: str
    out_dir: Path
    shown_out: Path  # as the full build prints it
    key: run_memo.Fingerprint

    @classmethod
    def open(cls, workspace: Path, out: Path | None, projects: tuple[str, ...], mode: str | None,
             check: bool, planner: str = "off") -> "BuildMemo | None":
        """None when the workspace or its flinkx.yaml is not usable as is (the full build reports why)."""
        found = run_memo.workspace_config(workspace)
        if found is None:
            return None
        root, config = found
        shown_out = out or (root / config.build_dir)
        out_dir = shown_out.resolve()
        # `planner`: what the planner pass can do (off, why not, or the target): a build that planned
        # and one that could not are not the same build
        options = {"command": "build", "out": str(shown_out), "projects": list(projects), "mode": mode or "", "check": check,
                   "planner": planner}
        return cls(root, config.cache_dir, out_dir, shown_out, run_memo.fingerprint(root, options))

    def replay(self, check: bool) -> tuple[list[Diagnostic], list[str], int, int] | None:
        """(warnings, written files, tasks, projects) of the identical last build, or None."""
        data = run_memo.load(self.root, self.cache_dir, self.key)
        if data is None:
            return None
        warnings = run_memo.diagnostics_from_json(data.get("warnings"))
        files, tasks, projects = data.get("files"), data.get("tasks"), data.get("projects")
        if warnings is None or not isinstance(files, dict) or not isinstance(tasks, int) or not isinstance(projects, int):
            return None
        if not check and not run_memo.folder_holds(self.out_dir, files):
            return None
        return warnings, sorted(data.get("written") or []), tasks, projects

    def remember(self, warnings: list[Diagnostic], written: dict[str, str], tasks: int, projects: int,
                 check: bool, listed: list[str] | None = None, kept: dict[str, list[int]] | None = None) -> dict[str, list[int]] | None:
        """Store a successful build; `written`: the task files' texts it wrote (the folder must hold them),
        `listed`: every task file of the build (default: those). `kept`: the signature of every other file, as
        the caller knows it unchanged (an incremental build): only the files it wrote are looked at. The build
        folder's signature as stored (None: nothing was stored)."""
        files: dict[str, list[int]] = {}
        if not check:
            found = run_memo.folder_signature(self.out_dir) if kept is None else \
                run_memo.files_signature(self.out_dir, kept, [*written, *WRITTEN_EVERY_TIME])
            if found is None:
                return None
            if any(found.get(rel, [-1])[0] != len(text.encode("utf-8")) for rel, text in written.items()):
                return None  # another build replaced the folder meanwhile: store nothing
            files = found
        data = {"warnings": run_memo.diagnostics_to_json(warnings), "files": files, "written": sorted(listed or written),
                "tasks": tasks, "projects": projects}
        run_memo.store(self.root, self.cache_dir, self.key, data)
        return files
