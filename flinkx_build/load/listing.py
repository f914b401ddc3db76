"""load: the files of a project folder, as the loader lists them.

Every folder and file is an entry of a folder already found inside the
workspace, so only a symlink (or an entry named `.git`) can lead out: those
alone are resolved and refused with a finding; a folder linked to itself is
said, not skipped. Paths are shown relative to the current folder.
"""
from __future__ import annotations

import errno
import fnmatch
import os
import re
from pathlib import Path
from typing import Any
from typing import NamedTuple

from flinkx_build.errors import Diagnostic
from flinkx_build.load.names import entry_outside_diagnostic
from flinkx_build.load.names import has_control
from flinkx_build.load.names import loop_diagnostic
from flinkx_build.load.names import outside_diagnostic


def display_path(path: Path) -> str:
    """Path as the user should see it: relative to the cwd when below it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def loops(paths: list[Path]) -> list[Diagnostic]:
    """FX171 for each of `paths` that is a link leading back to itself."""
    return [d for d in (loop_diagnostic(p, display_path(p)) for p in paths) if d is not None]


class Found(NamedTuple):
    path: Path
    shown: str  # display_path(path)
    rel: str  # below the searched folder, with `/`


def files(folder: Path, pattern: str, root: Path, diags: list[Diagnostic]) -> list[Found]:
    """Regular files under `folder` (an entry of a checked project folder) matching `pattern`,
    none reached through a symlink leaving the workspace."""
    if not folder.is_dir():
        diags.extend(loops([folder]))  # tasks/ or tables/ linked to itself: said, not skipped
        return []
    outside = entry_outside_diagnostic(folder, root, lambda: display_path(folder))
    if outside:
        diags.append(outside)
        return []
    candidates: list[tuple[tuple[str, ...], bool]] = []
    _walk(folder, (), re.compile(fnmatch.translate(pattern)).fullmatch, root, diags, candidates)
    base = display_path(folder)
    found = []
    for parts, linked in sorted(candidates):  # as sorted(Path.rglob): by parts
        path = folder.joinpath(*parts)
        rel = "/".join(parts)
        # below `folder` (which resolves inside) every folder is a real one, so only a linked
        # file can lead out: resolve just those (resolving every path was most of this walk)
        if linked and not path.is_file():  # a dangling link, a link to a folder or a FIFO
            continue
        shown = display_path(path) if base == "." or linked else f"{base}/{rel}"
        problem = outside_diagnostic(path, root, shown) if linked else None
        if problem is None and has_control(rel):
            problem = Diagnostic(shown, 1, 1, "FX186", f"file name {path.name!r} holds a control character", "rename it")
        if problem:
            diags.append(problem)
            continue
        found.append(Found(path, shown, rel))
    return found


def _walk(folder: Path, parts: tuple[str, ...], match: Any, root: Path, diags: list[Diagnostic],
          out: list[tuple[tuple[str, ...], bool]]) -> None:
    """What rglob would match below `folder` (it does not enter linked folders: say so when they lead out)."""
    try:
        with os.scandir(folder) as scan:
            entries = list(scan)
    except OSError:  # unreadable: skipped, as rglob and os.walk do
        return
    real_dirs = []
    for entry in entries:
        linked = entry.is_symlink()
        try:
            is_dir = entry.is_dir()  # follows a link, as os.walk's list of folders does
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # a link to itself, or links in a circle: never followed
                diags.extend(loops([folder / entry.name]))
                continue
            is_dir = False
        if is_dir and linked:
            path = folder / entry.name
            problem = outside_diagnostic(path, root, display_path(path))
            diags.extend([problem] if problem else [])
        elif is_dir:
            real_dirs.append(entry.name)
        if match(entry.name) and (linked or not is_dir):
            if linked or entry.is_file(follow_symlinks=False):
                out.append(((*parts, entry.name), linked))
    for name in real_dirs:
        _walk(folder / name, (*parts, name), match, root, diags, out)


def yaml_files(folder: Path, root: Path, diags: list[Diagnostic]) -> list[Found]:
    return [f for f in files(folder, "*", root, diags) if f.path.suffix in (".yaml", ".yml")]
