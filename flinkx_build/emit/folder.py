"""Which folders `flinkx build` may replace, and the staging folders a killed build leaves.

A build replaces its whole folder, so it must never replace a folder it did
not make: every build folder holds a marker file (`.flinkx-build`, JSON with
the tool and its version). A folder without one is the user's and is
refused (FX190), and so is a build folder that is, holds or lies inside the
workspace's own files (FX191), marker or not: a wrong `build_dir` must never
cost a source file.

Staging folders (`.<name>.staging-*`, `.<name>.old-*`) sit next to the build
folder. A build holds an exclusive lock on the folder that holds them while it
writes; the kernel drops the lock when the process dies, even by SIGKILL, so a
start that holds the lock knows every staging folder there is left over and
removes it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from flinkx_build import __version__
from flinkx_build.errors import UsageError

try:
    import fcntl
except ImportError:  # not POSIX: no lock, builds of one folder must not run at the same time
    fcntl = None  # type: ignore[assignment]

MARKER = ".flinkx-build"
STAGING_KINDS = ("staging", "old")


class BuildFolderRefused(UsageError):
    """The build folder may not be replaced (exit code 2, nothing deleted)."""

    def __init__(self, folder: Path, code: str, message: str, hint: str) -> None:
        super().__init__(f"{folder}: {code} {message} ({hint})")
        self.code = code


def marker_text() -> str:
    return json.dumps({"tool": "flinkx", "version": __version__}, sort_keys=True) + "\n"


def has_marker(folder: Path) -> bool:
    marker = folder / MARKER
    if marker.is_symlink() or not marker.is_file():
        return False
    try:
        return json.loads(marker.read_text(encoding="utf-8")).get("tool") == "flinkx"
    except (OSError, ValueError, AttributeError):
        return False


def made_by_flinkx(folder: Path) -> bool:
    """A marked build folder, an empty folder, or a build of a flinkx from before markers.

    A folder holding nothing but a marker file, even a half-written one, counts
    as empty: a build killed while writing its staging folder's marker leaves one.
    """
    if has_marker(folder):
        return True
    entries = list(folder.iterdir())
    return all(e.name == MARKER and e.is_file() and not e.is_symlink() for e in entries) or _legacy_build(folder, entries)


def _legacy_build(folder: Path, entries: list[Path]) -> bool:
    """A folder whose every file is manifest.json or a compiled script that manifest lists."""
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        if not str(manifest["metadata"]["generator"]).startswith("flinkx "):
            return False
        listed = {t["compiled"] for t in manifest["tasks"].values() if t.get("compiled")} | {"manifest.json"}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    for path in folder.rglob("*"):
        if path.is_symlink() or (path.is_file() and path.relative_to(folder).as_posix() not in listed):
            return False
    return bool(entries)


def check_build_folder(out_dir: Path, workspace_root: Path | None) -> Path:
    """The resolved build folder, or BuildFolderRefused before anything is touched."""
    given = Path(out_dir)
    if given.is_symlink():
        raise BuildFolderRefused(given, "FX192", "the build folder is a symlink; refusing to replace it", "point build_dir or --out at a real folder")
    out = given.resolve()
    if out.exists() and not out.is_dir():
        raise BuildFolderRefused(given, "FX192", "the build folder is not a folder; refusing to replace it", "point build_dir or --out at a folder")
    if workspace_root is not None:
        _check_sources(given, out, Path(workspace_root).resolve())
    if (out / "flinkx.yaml").exists():
        raise BuildFolderRefused(given, "FX191", "the build folder holds a flinkx.yaml: it is a workspace, not a build", "set build_dir or --out to a folder of its own, such as build")
    if out.is_dir() and not made_by_flinkx(out):
        raise BuildFolderRefused(given, "FX190", f"the build folder exists and flinkx did not make it (no {MARKER} marker); nothing was deleted", "move it away, or set build_dir or --out to another folder")
    return out


def _check_sources(given: Path, out: Path, root: Path) -> None:
    if out == root or root.is_relative_to(out):
        raise BuildFolderRefused(given, "FX191", "the build folder is the workspace or a folder above it; refusing to replace it", "set build_dir to a folder inside the workspace, such as build")
    for source in (root / "projects", root / "flinkx.yaml"):
        if out.is_relative_to(source) or source.is_relative_to(out):
            raise BuildFolderRefused(given, "FX191", f"the build folder is, holds or lies inside the workspace's {source.name}; refusing to replace it", "set build_dir to a folder of its own, such as build")


@contextmanager
def folder_lock(out: Path, wait: bool = True) -> Iterator[bool]:
    """Hold an exclusive lock on the folder that holds `out` (yields False when `wait` is off and it is taken).

    One build at a time per folder: while a build holds it, every staging folder
    next to `out` is its own; once the lock is free, every one left is a leftover
    (the kernel drops the lock of a killed process, SIGKILL included).
    """
    if fcntl is None:
        yield True
        return
    fd = os.open(out.parent, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing drops the lock


def staging_pattern(out: Path) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(out.name)}\.(?:{'|'.join(STAGING_KINDS)})-[A-Za-z0-9_]+")


def leftover_folders(out: Path) -> list[Path]:
    """Staging and old folders next to `out` (all left over while the caller holds `folder_lock`)."""
    if not out.parent.is_dir():
        return []
    pattern = staging_pattern(out)
    return [e for e in sorted(out.parent.iterdir()) if pattern.fullmatch(e.name) and e.is_dir() and not e.is_symlink()]


def clean_leftovers(out: Path) -> None:
    """Remove what killed builds left next to `out`; put back a previous build a kill left aside.

    Call it holding `folder_lock(out)`: then no live build owns any of them.
    """
    leftovers = leftover_folders(out)
    if not out.exists():
        # killed between moving the previous build aside and moving the new one in
        olds = sorted((p for p in leftovers if ".old-" in p.name and has_marker(p)), key=lambda p: p.stat().st_mtime)
        if olds:
            os.replace(olds[-1], out)
            leftovers.remove(olds[-1])
    for folder in leftovers:
        if made_by_flinkx(folder):  # never a folder that only happens to share the name
            remove_build_folder(folder)


def remove_build_folder(folder: Path) -> None:
    """Delete a build or staging folder, its marker last: a removal cut short by a kill stays recognisable."""
    if not folder.is_dir() or folder.is_symlink():
        return
    for entry in folder.iterdir():
        if entry.name == MARKER:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    (folder / MARKER).unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:
        pass  # something was added meanwhile: leave it
