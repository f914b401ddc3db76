"""The spare build folder: the build before the last one, kept to be brought up to date instead of remade.

A build writes the whole new folder and swaps it in (`writer.py`). Made
from nothing each time, that is a folder per project and a link per file,
and then the previous build to delete: at 1,600 projects 1,600 `mkdir`s,
4,400 links and 6,000 removals, a third of a build that changed one task.
After a swap on Linux (`renameat2(RENAME_EXCHANGE)`) the staging folder
holds the previous build whole, so it is kept in the cache folder (same
file system, one per build folder) and the next build moves it back as its
staging folder: only the files that differ from the new build are
replaced, the ones it no longer has removed.

Nothing in a spare is trusted. It is walked before use and dropped if it
holds anything but folders and regular files (a link planted in a committed
cache folder must not lead a write out); each kept file is the one the
current build holds (same inode) with the same bytes, and every other file
is replaced; a file is never written in place (its inode may be the current
build's), only unlinked and made anew. A build killed while updating it
leaves a half-updated spare, which the next build checks the same way.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
from pathlib import Path

SPARE_FOLDER = "build-spare"


def spare_path(cache_root: Path | None, out: Path) -> Path | None:
    """Where the spare of build folder `out` lives: in the cache folder, on `out`'s file system."""
    if cache_root is None:
        return None
    name = hashlib.sha256(os.fsencode(out.resolve())).hexdigest()[:16]
    folder = cache_root / SPARE_FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if folder.is_symlink() or not folder.resolve().is_relative_to(cache_root.resolve()):
            return None
        if os.stat(folder).st_dev != os.stat(out.parent).st_dev:  # a swap cannot cross file systems
            return None
    except (OSError, RuntimeError):
        return None
    return folder / name


def take_spare(spare: Path, stage: Path) -> set[str] | None:
    """Move `spare` into the place of the empty staging folder `stage` and give the relative paths
    of its files; None when there is no spare it may use (one holding a link or a special file, or
    that cannot be read, is removed), and `stage` is then still an empty folder.

    Moved next to the build folder under the staging name, it is what a killed build leaves like
    any staging folder, and the next start removes it (`folder.clean_leftovers`)."""
    if spare.is_symlink():
        spare.unlink()
        return None
    if not spare.is_dir():
        return None
    try:
        os.rmdir(stage)
        os.replace(spare, stage)
        os.chmod(stage, 0o700)  # the build folder it becomes is private, as `mkdtemp` makes a new one (issue 41)
    except OSError:
        stage.mkdir(mode=0o700, exist_ok=True)
        return None
    files: set[str] = set()
    if _walk(str(stage), "", files):
        return files
    shutil.rmtree(stage, ignore_errors=True)  # rmtree removes links, it never follows them
    stage.mkdir(mode=0o700)
    return None


def _walk(folder: str, prefix: str, files: set[str]) -> bool:
    try:
        with os.scandir(folder) as scan:
            entries = list(scan)
    except OSError:
        return False
    for entry in entries:
        rel = prefix + entry.name
        if entry.is_symlink():
            return False
        if entry.is_dir(follow_symlinks=False):
            if not _walk(entry.path, rel + "/", files):
                return False
        elif entry.is_file(follow_symlinks=False):
            files.add(rel)
        else:
            return False
    return True


def same_inode(target: str, previous: str) -> bool:
    """`target` in the spare is the current build's `previous` (one inode of a regular file): it holds
    what the current build holds, which the caller knows by the build folder's signature."""
    try:
        a, b = os.lstat(target), os.lstat(previous)
    except OSError:
        return False
    return stat.S_ISREG(a.st_mode) and (a.st_ino, a.st_dev, a.st_size) == (b.st_ino, b.st_dev, b.st_size)


def same_file(target: str, previous: str, data: bytes) -> bool:
    """`target` in the spare is the current build's `previous` (one inode), holding exactly `data`."""
    try:
        a, b = os.lstat(target), os.lstat(previous)
    except OSError:
        return False
    if not stat.S_ISREG(a.st_mode) or (a.st_ino, a.st_dev) != (b.st_ino, b.st_dev) or a.st_size != len(data):
        return False
    with open(previous, "rb") as handle:
        return handle.read() == data


def prune(spare: Path, stale: set[str]) -> None:
    """Remove the files of an earlier build the new one does not have, and the folders left empty."""
    folders = set()
    for rel in stale:
        os.unlink(spare / rel)
        folders.update(str(p) for p in Path(rel).parents if str(p) != ".")
    for folder in sorted(folders, key=lambda f: f.count("/"), reverse=True):
        try:
            os.rmdir(spare / folder)
        except OSError:  # still holds files of the new build
            pass
