"""How `flinkx fix` writes a fixed file: only regular files inside the workspace, atomically.

A workspace comes from a pull request, so a task or table file may be a
symlink to a file elsewhere (`~/.bashrc`, another checkout). `fix` never
writes through a link: a file that is a symlink, is not a regular file, or
resolves outside the workspace is left as it is and reported (FX194). The
new text goes to a temporary file in the same folder, which then replaces the
file in one rename: a killed `fix` leaves the old file or the new one, never
half of each, and the rename replaces the directory entry, never a file that
a link or a hard link points to.
"""
from __future__ import annotations

import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from flinkx_build.errors import Diagnostic


@dataclass
class FileFix:
    """One file `flinkx fix` changes: its text before and after, and what was fixed."""

    path: Path
    display_path: str
    before: str
    after: str
    fixed: list[Diagnostic]


def refusal(path: Path, workspace_root: Path) -> str:
    """Why `path` must not be rewritten, or "" when it may."""
    if path.is_symlink():
        return "it is a symlink"
    try:
        info = os.lstat(path)
    except OSError:
        return "it cannot be read"
    if not stat.S_ISREG(info.st_mode):
        return "it is not a regular file"
    if not path.resolve().is_relative_to(Path(workspace_root).resolve()):
        return "it is outside the workspace"
    return ""


def replace_text(path: Path, text: str) -> None:
    """Write `text` to a temporary file next to `path` (same mode) and rename it over `path`."""
    mode = stat.S_IMODE(os.lstat(path).st_mode)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".flinkx-fix")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_fixed(path: Path, display_path: str, text: str, workspace_root: Path) -> Diagnostic | None:
    """Rewrite one fixed file; a FX194 warning instead when it may not be rewritten."""
    why = refusal(path, workspace_root)
    if why:
        return Diagnostic(display_path, 1, 1, "FX194", f"not fixed: {why}", "flinkx fix rewrites only regular files inside the workspace")
    replace_text(path, text)
    return None


def write_fixes(fixes: list[FileFix], workspace_root: Path) -> tuple[list[FileFix], list[Diagnostic]]:
    """Write every fix that may be written: (the fixes written, FX194 for the others)."""
    written: list[FileFix] = []
    refused: list[Diagnostic] = []
    for change in fixes:
        problem = write_fixed(change.path, change.display_path, change.after, workspace_root)
        if problem is None:
            written.append(change)
        else:
            refused.append(problem)
    return written, refused
