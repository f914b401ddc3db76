"""The result of a whole `flinkx build` or `flinkx lint` run, reused when none of its inputs changed.

Loading, resolving and checking a workspace of 1,000 tasks takes tens of
seconds even with every parse cached, while the common run (pre-commit, an
editor save, a second `flinkx build`) changes nothing. So a successful run
stores what it printed and wrote under a key over EVERYTHING it can depend
on: the command's options, the current folder (messages show paths
relative to it), flinkx.yaml's bytes and every file below projects/ (the
only inputs the loader reads; symlinks by their target); flinkx's own code,
sqlfluff's and Python's versions are the cache folder's
code version (`cache_version.py`). Any change at all is a
miss, and the run does its full work (whose per-file caches still apply);
there is no partial reuse here, so nothing here can go stale.

A file below projects/ enters the key by its size, mtime, ctime, inode and
device, as git's index and make know a file (reading and hashing the 17,000
files of 1,600 projects was two thirds of a run that changed nothing). A
file younger than RACY_NS could still be edited within one step of the file
system's clock after the stat taken here, keeping every field but the
content (git's "racy clean" rule), so its bytes' hash is stored with the run
and checked before a replay, as git checks a racily clean entry. (Keying
such a file by its bytes instead gave a key that changed once the file
settled: the build right after a checkout was never replayed.) The stat is
the local file system's, not the files' content: a checkout gives each file
it writes a new ctime, and nothing committed can make a changed file look
unchanged.

A build is reused only if the build folder still holds exactly the files
that run wrote (checked by size, mtime and inode, as make does), so a
deleted, edited or replaced output is rebuilt. Entries are data-only JSON in the cache folder, checked like every
cache entry (`flinkx_build.cache_entries`).
"""
from __future__ import annotations

import hashlib
import os
import stat
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any
from typing import NamedTuple

from flinkx_build.cache_prune import prune_if_due
from flinkx_build.cache_root import workspace_cache_root
from flinkx_build.errors import Diagnostic
from flinkx_build.cache_version import version_folder_name
from flinkx_build.incremental.facts import WHOLE_RUN
from flinkx_build.incremental.store import FactStore
from flinkx_build.limits import MAX_FILE_BYTES
from flinkx_build.load.read_once import read_bytes
from flinkx_build.load.root import CONFIG_FILE
from flinkx_build.load.root import find_workspace
from flinkx_build.load.root import load_config  # the loader's own reading of flinkx.yaml, nothing else
from flinkx_build.workspace_model import WorkspaceConfig

FACT = WHOLE_RUN  # versions 2: build files by size, mtime and inode; 3: input files by their stat once settled; 4: always, recent ones checked
DEFAULT_CACHE_DIR = ".flinkx-cache"
# A file modified this recently is keyed by its bytes: FAT stores mtimes in 2 s steps, the coarsest
# file system a workspace may sit on (ext4 and APFS steps are a jiffy or finer).
RACY_NS = 2_000_000_000


class Fingerprint(NamedTuple):
    """A run's key, and the hash of each input file too recent for its stat alone (checked on replay)."""

    key: str
    racy: dict[str, str]  # path relative to the workspace -> sha256 of the bytes read when keyed
    # every entry below projects/ (relative path -> what stood for it in the key: a file's stat, "dir", a
    # link's target): what an incremental build compares with the last one's (`workspace_build/record.py`)
    entries: dict[str, str] = {}
    config: str = ""  # sha256 of flinkx.yaml's bytes ("" when there is none)


def _hash_tree(digest: "hashlib._Hash", folder: str, rel_folder: str, settled_before: int, racy: dict[str, str],
               seen: dict[str, str]) -> None:
    """Hash every file below `folder`, each named by its path relative to the workspace
    (`rel_folder` is the folder's: joined here, as `os.path.relpath` per file took a third of the time),
    by its stat; of a file whose mtime or ctime is not before `settled_before` (ns), `racy` gets the bytes' hash.
    `seen`: each entry's relative path -> what was hashed for it."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        digest.update(f"unreadable {rel_folder}: {exc.errno}\0".encode())
        seen[rel_folder] = f"unreadable {exc.errno}"
        return
    for entry in entries:
        rel = f"{rel_folder}/{entry.name}"
        try:
            if entry.is_symlink():
                link = f"link {rel} -> {os.readlink(entry.path)}\0"
                digest.update(link.encode())
                seen[rel] = link
            is_dir = entry.is_dir()  # follows a link to a folder, as the loader would (it refuses those that leave)
        except OSError as exc:  # a link to itself or a loop (ELOOP): the loader reports it; hash what it is
            digest.update(f"unresolvable {rel}: {exc.errno}\0".encode())
            seen[rel] = "unresolvable"
            continue
        if is_dir:
            digest.update(f"dir {rel}\0".encode())
            seen.setdefault(rel, "dir")
            if not entry.is_symlink():
                _hash_tree(digest, entry.path, rel, settled_before, racy, seen)
            continue
        identity = _file_identity(entry, rel, settled_before, racy)
        digest.update(f"file {rel} ".encode() + identity)
        seen[rel] = seen[rel] + identity.decode() if rel in seen else identity.decode()


def _file_identity(entry: os.DirEntry, rel: str, settled_before: int, racy: dict[str, str]) -> bytes:
    """What stands for the file's content in the key: its stat (and, while recent, its bytes in `racy`)."""
    try:
        info = entry.stat()  # through a link, as the loader reads it
        if not stat.S_ISREG(info.st_mode):
            return f"not a regular file {stat.S_IFMT(info.st_mode)}\0".encode()
        if max(info.st_mtime_ns, info.st_ctime_ns) >= settled_before:
            racy[rel] = _content_hash(entry.path)
        return f"stat {info.st_size} {info.st_mtime_ns} {info.st_ctime_ns} {info.st_ino} {info.st_dev}\0".encode()
    except OSError as exc:
        return f"unreadable {exc.errno}\0".encode()


def _content_hash(path: str) -> str:
    """The bytes' hash; the loader refuses a file over its limit (FX180) whatever it holds: never read one whole."""
    try:
        data = read_bytes(path, MAX_FILE_BYTES)
    except OSError as exc:
        return f"unreadable {exc.errno}"
    return "over the limit" if data is None else hashlib.sha256(data).hexdigest()


def bytes_unchanged(root: Path, rel: str, digest: str) -> bool:
    """The file `rel` below the workspace still holds the bytes whose hash is `digest` (a file too recent
    for its stat alone when it was keyed)."""
    return _content_hash(os.path.join(root, rel)) == digest


def _racy_unchanged(root: Path, racy: Any) -> bool:
    """Every file that was too recent when the run was keyed still holds the bytes it had then."""
    if not isinstance(racy, dict):
        return False
    for rel, digest in racy.items():
        parts = rel.split("/") if isinstance(rel, str) else []
        if not parts or parts[0] != "projects" or any(p in ("", ".", "..") for p in parts) or not isinstance(digest, str):
            return False  # never a path outside the workspace's projects folder
        if _content_hash(os.path.join(root, rel)) != digest:
            return False
    return True


def fingerprint(root: Path, options: dict[str, Any]) -> Fingerprint:
    """A key over the workspace's inputs and the run's options (see the module docstring)."""
    digest = hashlib.sha256()
    env = [os.getcwd(), FACT.format, FACT.version]  # flinkx's code and versions: the folder (`_store`)
    digest.update(repr((env, sorted(options.items()))).encode())
    config = root / CONFIG_FILE
    digest.update(f"config {config.is_symlink()}\0".encode())
    config_bytes = config.read_bytes() if config.is_file() else b"no config"
    digest.update(config_bytes)
    racy: dict[str, str] = {}
    seen: dict[str, str] = {}
    _hash_tree(digest, os.path.join(root, "projects"), "projects", time.time_ns() - RACY_NS, racy, seen)
    return Fingerprint(digest.hexdigest(), racy, seen, f"{config.is_symlink()} {hashlib.sha256(config_bytes).hexdigest()}")


def workspace_config(workspace: Path) -> tuple[Path, WorkspaceConfig] | None:
    """The workspace root and its flinkx.yaml alone, or None when either has a problem (the full run reports it)."""
    try:
        root = find_workspace(workspace)
        problems: list[Diagnostic] = []
        config = load_config(root / CONFIG_FILE, root, problems)
    except Exception:  # any problem is the full run's to report, with its message
        return None
    return None if problems else (root, config)


def _store(cache: Path | None) -> FactStore:
    """This code version's folder of the cache folder `cache` (no entry leaves `cache`)."""
    return FactStore(None if cache is None else cache / version_folder_name(), cache)


def load(root: Path, cache_dir: str | None, run: Fingerprint) -> dict[str, Any] | None:
    """The stored run with this key whose recent files still hold the bytes they had, or None.

    Of those files, the ones no longer recent are dropped from the entry, as git refreshes a racily
    clean entry of its index: their stat now vouches for them, and a replay reads no file again."""
    store = _store(workspace_cache_root(root, cache_dir or DEFAULT_CACHE_DIR))
    data = store.get(FACT, run.key)
    if not isinstance(data, dict) or not _racy_unchanged(root, data.get("racy")):
        return None
    still_recent = {rel: digest for rel, digest in data["racy"].items() if rel in run.racy}
    if len(still_recent) != len(data["racy"]):
        data["racy"] = still_recent
        store.put(FACT, run.key, data, counted=False)
    return data


def store(root: Path, cache_dir: str | None, run: Fingerprint, data: dict[str, Any]) -> None:
    """Store a whole run; this ends every build and lint that cached something, so it is also
    where the cache folder sheds what no run has used for weeks (once a day, `cache_prune.py`)."""
    cache = workspace_cache_root(root, cache_dir or DEFAULT_CACHE_DIR)
    _store(cache).put(FACT, run.key, {**data, "racy": run.racy})
    prune_if_due(cache, current=version_folder_name())


def diagnostics_to_json(diags: list[Diagnostic]) -> list[dict[str, Any]]:
    return [asdict(d) for d in diags]


def diagnostics_from_json(data: Any) -> list[Diagnostic] | None:
    """The stored findings, or None when the entry has the wrong shape (then the run is done again)."""
    try:
        return [Diagnostic(**{k: item[k] for k in ("path", "line", "col", "code", "message", "hint", "severity", "fixable")})
                for item in data]
    except (TypeError, KeyError):
        return None


def folder_signature(out_dir: Path) -> dict[str, list[int]] | None:
    """Relative path -> [size, mtime in ns, inode] of every file below `out_dir`; None when it holds
    anything but folders and regular files (a link is never followed) or cannot be read.

    As make and ninja do, an output is taken as unchanged while its size, mtime and inode are: an
    edit or a replacement changes the mtime or the inode, and reading 1,000 files back after every
    build cost more than writing them."""
    found: dict[str, list[int]] = {}
    try:
        return found if _signature(str(out_dir), "", found) else None
    except OSError:
        return None


def _signature(folder: str, prefix: str, found: dict[str, list[int]]) -> bool:
    """One `scandir` per folder and one `lstat` per file (`os.walk` and a path join per file took
    three times as long: 0.09 s for the 4,400 files of 1,600 projects, most of a run that changed nothing)."""
    with os.scandir(folder) as scan:
        for entry in scan:
            if entry.is_dir(follow_symlinks=False):
                if not _signature(entry.path, f"{prefix}{entry.name}/", found):
                    return False
                continue
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISREG(info.st_mode):
                return False
            found[prefix + entry.name] = [info.st_size, info.st_mtime_ns, info.st_ino]
    return True


def files_signature(out_dir: Path, kept: dict[str, list[int]], written: list[str]) -> dict[str, list[int]] | None:
    """`folder_signature` of a folder known to hold `kept` as they were, and `written` anew (None as there)."""
    found = dict(kept)
    try:
        for rel in written:
            info = os.lstat(os.path.join(out_dir, rel))
            if not stat.S_ISREG(info.st_mode):
                return None
            found[rel] = [info.st_size, info.st_mtime_ns, info.st_ino]
    except OSError:
        return None
    return found


def folder_holds(out_dir: Path, files: dict[str, list[int]]) -> bool:
    """True when `out_dir` holds exactly `files` (as `folder_signature` gives them) and nothing else."""
    return os.path.isdir(out_dir) and folder_signature(out_dir) == files
