"""emit: write the build directory atomically.

Everything is written into a staging folder next to the build folder and
swapped in, so a failed or interrupted build leaves the previous build whole.
On Linux the swap is one `renameat2(RENAME_EXCHANGE)`: at every instant the
build folder is either the previous build or the new one. Elsewhere it is two
renames, and a start after a kill between them puts the previous build back.
Which folders may be replaced, and the cleanup of what a killed build left:
`emit/folder.py`. After a swap the staging folder holds the previous build:
kept as the spare (`emit/spare.py`), the next build brings it up to date
instead of making every folder and file again.
"""
from __future__ import annotations

import ctypes
import errno
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from flinkx_build import json_codec
from flinkx_build.emit.folder import MARKER
from flinkx_build.emit.folder import BuildFolderRefused
from flinkx_build.emit.folder import check_build_folder
from flinkx_build.emit.folder import clean_leftovers
from flinkx_build.emit.folder import folder_lock
from flinkx_build.emit.folder import marker_text
from flinkx_build.emit.folder import remove_build_folder
from flinkx_build.emit.spare import prune
from flinkx_build.emit.spare import same_file
from flinkx_build.emit.spare import same_inode
from flinkx_build.emit.spare import take_spare


def prepare_build_folder(out_dir: Path, workspace_root: Path | None = None) -> Path:
    """Refuse a folder flinkx may not replace and remove leftovers of killed builds: at the start of a build."""
    out = check_build_folder(out_dir, workspace_root)
    if out.parent.is_dir():
        with folder_lock(out, wait=False) as held:
            if held:  # else another build is writing: it cleans up itself
                clean_leftovers(out)
    return out


def write_build(out_dir: Path, files: dict[str, str], manifest: dict[str, Any] | bytes, keep_projects: set[str] | None = None,
                workspace_root: Path | None = None, spare: Path | None = None, unchanged: frozenset[str] = frozenset()) -> None:
    """Replace `out_dir` with `files` (relative path -> text), manifest.json and the marker.

    `keep_projects`: project folders of the previous build to carry over
    unchanged (a `--project` build only rebuilds the projects it names).
    `workspace_root`: the build folder must not be it, hold it or hold its sources.
    `spare`: where the build before this one is kept to stage the next (`emit/spare.py`).
    `manifest`: its JSON, or its bytes as written. `unchanged`: files of the new build that the
    current build folder holds already, as the caller checked by their stat (an incremental build,
    `workspace_build/incremental_build.py`): linked from it, never read.
    """
    out = check_build_folder(out_dir, workspace_root)
    out.parent.mkdir(parents=True, exist_ok=True)
    with folder_lock(out):
        clean_leftovers(out)
        check_build_folder(out_dir, workspace_root)  # a cleanup may have put a previous build back
        spare = spare if not keep_projects and _EXCHANGE_POSSIBLE else None
        stage = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
        held = take_spare(spare, stage) if spare is not None and out.is_dir() else None
        try:
            _fill(stage, out, files, manifest, keep_projects, held, unchanged)
            _swap(stage, out, spare)
        except BaseException:
            remove_build_folder(stage)
            raise


def _fill(stage: Path, out: Path, files: dict[str, str], manifest: dict[str, Any] | bytes, keep_projects: set[str] | None,
          held: set[str] | None = None, unchanged: frozenset[str] = frozenset()) -> None:
    """Write the new build into `stage`: an empty folder, or a spare holding the files `held`."""
    _write_new(stage / MARKER, marker_text().encode())  # first: a staging folder is always recognisable
    if keep_projects and out.is_dir():
        for project in sorted(keep_projects):
            previous = out / project
            if previous.is_dir() and not previous.is_symlink():
                shutil.copytree(previous, _inside(stage, project), symlinks=True)  # links stay links: nothing read outside
    stage_dir, out_dir = str(stage), str(out)
    if held is not None:  # first what the new build lacks: a task that became a folder of tasks then fits
        stale = held - files.keys() - unchanged - {MARKER, "manifest.json"}
        prune(stage, stale)
        held -= stale
    made = {os.path.dirname(os.path.join(stage_dir, rel)) for rel in held or ()}
    for rel in unchanged:  # the current build's own file: the spare's when it is that inode, else a link to it
        target, previous = os.path.join(stage_dir, rel), os.path.join(out_dir, rel)
        if held is not None and rel in held:
            held.discard(rel)
            if same_inode(target, previous):
                continue
            os.unlink(target)
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        os.link(previous, target, follow_symlinks=False)
    for rel, text in files.items():
        # plain strings: a Path per file cost a third of writing 1,000 unchanged files
        plain = not keep_projects and _plain_relative(rel)
        target = os.path.join(stage_dir, rel) if plain else str(_inside(stage, rel))
        previous, data = os.path.join(out_dir, rel), text.encode("utf-8")
        if held is not None and rel in held:
            held.discard(rel)
            if same_file(target, previous, data):  # the current build's own file: nothing to do
                continue
            os.unlink(target)  # never written in place: its inode may be the current build's
        parent = os.path.dirname(target)
        if parent not in made:
            os.makedirs(parent, exist_ok=True)
            made.add(parent)
        if not _link_unchanged(previous, target, data):
            with open(target, "wb") as handle:
                handle.write(data)
    # compact, as dbt writes its manifest: indenting 5 MB at 1,000 tasks took four times as long
    _write_new(stage / "manifest.json", manifest if isinstance(manifest, bytes) else manifest_chunks(manifest))


def manifest_bytes(manifest: dict[str, Any]) -> bytes:
    """manifest.json as written: compact JSON with sorted keys and a final newline."""
    return b"".join(manifest_chunks(manifest))


def manifest_chunks(manifest: dict[str, Any]) -> Iterator[bytes]:
    """manifest.json's bytes (`manifest_bytes`), a node at a time: the whole text at once was the peak of a cold
    build at 10,010 tasks, 60 MB on top of the manifest itself (761 MB; docs/performance.md)."""
    if not _text_keys(manifest):
        yield json_codec.dumps(manifest, sort_keys=True) + b"\n"
        return
    yield b"{"
    for i, key in enumerate(sorted(manifest)):
        value = manifest[key]
        head = (b"," if i else b"") + json_codec.dumps(key) + b":"
        if isinstance(value, dict) and value and _text_keys(value):
            yield head + b"{"
            for j, inner in enumerate(sorted(value)):
                yield (b"," if j else b"") + json_codec.dumps(inner) + b":" + json_codec.dumps(value[inner], sort_keys=True)
            yield b"}"
        else:
            yield head + json_codec.dumps(value, sort_keys=True)
    yield b"}\n"


def _text_keys(mapping: dict[Any, Any]) -> bool:
    """Keys sorted here as the JSON encoder sorts them: text (an int key sorts by its written form there)."""
    return all(type(key) is str for key in mapping)


def _write_new(path: Path, data: bytes | Iterable[bytes]) -> None:
    """`path` made with `data` (its bytes, or its bytes in chunks). Where a spare held a file, a new one takes
    its place in one rename: the old one is never written through, and the marker is there at every instant (a
    killed build leaves a folder the next start recognises and removes)."""
    chunks = [data] if isinstance(data, bytes) else data
    if not os.path.lexists(path):
        with open(path, "wb") as handle:
            handle.writelines(chunks)
        return
    fresh = path.with_name(path.name + ".new")
    fresh.unlink(missing_ok=True)
    with open(fresh, "xb") as handle:
        handle.writelines(chunks)
    os.replace(fresh, path)


def _link_unchanged(previous: str, target: str, data: bytes) -> bool:
    """Hard-link the previous build's file when it holds exactly `data`: an unchanged file keeps
    its inode and mtime (rsync, deploy tools and editors see no change) and costs no write.
    The previous build is never written to, so sharing its inode changes nothing it holds."""
    try:
        info = os.lstat(previous)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            return False
        with open(previous, "rb") as handle:
            if handle.read() != data:
                return False
        os.link(previous, target, follow_symlinks=False)
        return True
    except OSError:  # no previous file, or a file system without hard links: write it
        return False


def _plain_relative(rel: str) -> bool:
    """`rel` is relative and every part a plain name: below a staging folder that holds only
    folders this build made (no links copied from a previous build), it cannot lead out."""
    return bool(rel) and not os.path.isabs(rel) and all(part not in ("", ".", "..") for part in rel.split("/"))


def _inside(stage: Path, rel: str) -> Path:
    """stage/rel, refused if it would leave the staging folder (names are checked at load time too)."""
    target = stage / rel
    if Path(rel).is_absolute() or not target.resolve().is_relative_to(stage.resolve()) or target.resolve() == stage.resolve():
        raise BuildFolderRefused(Path(rel), "FX193", "a build file would be written outside the build folder", "project and task names must be plain names")
    return target


def _swap(stage: Path, out: Path, spare: Path | None = None) -> None:
    if out.exists() and _exchange(stage, out):
        # stage now holds the previous build: the spare of the next one, or deleted
        if spare is not None:
            try:
                os.replace(stage, spare)
                return
            except OSError:  # a folder there meanwhile, or a file system in between
                pass
        remove_build_folder(stage)
        return
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
        os.rmdir(old)
        os.replace(out, old)
    try:
        os.replace(stage, out)
    except OSError:
        if old is not None:
            os.replace(old, out)
        raise
    if old is not None:
        remove_build_folder(old)


_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
_EXCHANGE_POSSIBLE = sys.platform.startswith("linux")  # elsewhere a swap leaves no previous build to keep


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux renameat2); False when the system or file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))
