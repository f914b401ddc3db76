"""The one code-version key of every on-disk cache, and the cache folder it names.

Every cache of a workspace (parsed YAML, the load memo, parsed statements,
task summaries, lint results, the graph's cycle check, whole runs) lives in
`<cache_dir>/<code version>/`, as ruff keeps `.ruff_cache/<version>/`. The
code version is a hash of every file of flinkx's package and of its sqlfluff
rules (all files, found by walking the folders, so a data file added under
`flinkx_build/data/` counts without being named here), and of the versions of
sqlfluff, ruamel.yaml and Python. So this is the one place that decides
whether a cached result is stale: a changed module or data file is a new
folder, where every cache misses; entries key only on what they are computed
from in the workspace. `cache_prune.py` removes what no run has used for a
while, old versions' folders included.

Hashing the package's files is about 250 file reads every run. Their stat
(path, mtime_ns, size) is cheaper, so the hash is stored in the user's cache
folder under a key over the stats, as a cache entry like every other (JSON,
HMAC-checked: `cache_entries.py`). A file edited in place keeps neither its
mtime nor its size in practice; a copy that keeps both (as `cp -p` of the same
bytes) is the same code.
"""
from __future__ import annotations

import hashlib
import os
import platform
from functools import lru_cache
from pathlib import Path

from flinkx_build import __version__
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.cache_root import workspace_cache_root
from flinkx_build.hashing import installed_version
from flinkx_build.incremental.facts import CODE_VERSION
from flinkx_build.incremental.store import FactStore

FACT = CODE_VERSION
FOLDER = "code-version"  # in the user's cache folder: no workspace can plant an entry there
SKIPPED_FOLDERS = frozenset({"__pycache__"})
SKIPPED_SUFFIXES = (".pyc", ".pyo", ".tmp")


def package_folders() -> list[Path]:
    """flinkx_build, and flinkx_rules (found, not imported: importing it imports sqlfluff)."""
    import importlib.util

    folders = [Path(__file__).resolve().parent]
    rules = importlib.util.find_spec("flinkx_rules")
    if rules is not None and rules.origin:
        folders.append(Path(rules.origin).resolve().parent)
    return folders


def package_files(folders: list[Path]) -> list[tuple[str, str, os.stat_result]]:
    """(label, path, stat) of every file below `folders`, sorted by label: what the code version hashes."""
    found: list[tuple[str, str, os.stat_result]] = []
    for folder in folders:
        _walk(str(folder), folder.name, found)
    return sorted(found, key=lambda item: item[0])


def _walk(folder: str, label: str, out: list[tuple[str, str, os.stat_result]]) -> None:
    try:
        with os.scandir(folder) as scan:
            entries = list(scan)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            if entry.name not in SKIPPED_FOLDERS:
                _walk(entry.path, f"{label}/{entry.name}", out)
        elif entry.is_file() and not entry.name.endswith(SKIPPED_SUFFIXES):
            out.append((f"{label}/{entry.name}", entry.path, entry.stat()))


def environment() -> str:
    """What the caches depend on besides flinkx's files: the libraries that parse and their versions."""
    return "\0".join([__version__, installed_version("sqlfluff"), installed_version("ruamel.yaml"),
                      platform.python_version()])


def content_hash(files: list[tuple[str, str, os.stat_result]], env: str) -> str:
    """The hash of the files' names and bytes and of `env`: the code version."""
    digest = hashlib.sha256(f"{FACT.format}\0{env}\0".encode())
    for label, path, _ in files:
        with open(path, "rb") as handle:
            data = handle.read()
        digest.update(f"{label}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()


def stat_key(files: list[tuple[str, str, os.stat_result]], env: str) -> str:
    """A key over the files' names, sizes and mtimes (and `env`): where the content hash is stored."""
    digest = hashlib.sha256(f"{FACT.format}\0{FACT.version}\0{env}\0".encode())
    for label, path, info in files:
        digest.update(f"{label}\0{path}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    return digest.hexdigest()


def compute_code_version(folders: list[Path], store: Path | None) -> str:
    """The code version of the package in `folders`, read from `store` when its files' stats are
    unchanged, else hashed (and stored). `store`: a folder of the user's own, or None."""
    files, env = package_files(folders), environment()
    key = stat_key(files, env)
    facts = FactStore(store)
    found = facts.get(FACT, key)
    if isinstance(found, str) and len(found) == 64 and found.isalnum():
        return found
    version = content_hash(files, env)
    facts.put(FACT, key, version)
    return version


@lru_cache(maxsize=1)
def code_version() -> str:
    """The code version of the running flinkx (see the module docstring)."""
    store = user_cache_dir() / FOLDER
    return compute_code_version(package_folders(), store)


def code_versioned(*parts: str) -> str:
    """A short key over `parts` (a Flink release) and the code version: what flinkx builds from its own
    sources outside the workspace's cache (the planner driver's jar, the stand-in jar) is built again
    exactly when the code version changes (every file of the package, its Java sources included)."""
    return hashlib.sha256("\0".join([*parts, code_version()]).encode()).hexdigest()[:16]


def version_folder_name() -> str:
    """The cache folder's subfolder of this code version (short: it is part of every entry's path)."""
    return code_version()[:16]


def versioned_cache_root(root: Path, cache_dir: str) -> Path | None:
    """`root/cache_dir/<code version>`: where this flinkx's caches of the workspace live, or None
    when the cache folder is not one of flinkx's own (`cache_root.workspace_cache_root`)."""
    base = workspace_cache_root(root, cache_dir)
    return None if base is None else base / version_folder_name()
