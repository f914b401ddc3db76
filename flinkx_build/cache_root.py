"""Where flinkx keeps what it caches: the workspace's cache folder, and the user's own.

The workspace's cache folder (`cache_dir`, default `.flinkx-cache`) holds data
only (JSON entries, authenticated before use: `cache_entries.py`, `cache_secret.py`).
A pull request can commit anything there, a symlink included, so the folder is
used only when, with every link followed, it is a folder of flinkx's own: inside
the workspace, and not the workspace, its sources or .git
(`own_folder_problem`, the rule `build_dir` and `cache_dir` are checked by too);
else flinkx caches nothing for the run (FX100 says why) rather than write
through the link.

What would run as code if it were planted (the planner driver's jar and each
target's Flink jars, on the JVM's class path), the key that authenticates cache
entries, and what other programs write (the warm planner's socket and log) are
kept in the user's cache folder instead: `$FLINKX_HOME`, else `$XDG_CACHE_HOME/flinkx`, else
`~/.cache/flinkx` (pre-commit keeps its environments the same way). Nothing in
a workspace can name that folder or write into it.
"""
from __future__ import annotations

import functools
import os
import stat
import tempfile
from pathlib import Path

from flinkx_build.errors import UsageError

HOME_ENV = "FLINKX_HOME"


def own_folder_problem(root: Path, value: str) -> str:
    """Why `root/value`, every link followed, cannot be a folder flinkx writes (and replaces):
    outside the workspace, the workspace itself, its sources or .git; "" when it can."""
    base = root.resolve()
    try:
        resolved = (root / value).resolve()  # an absolute value replaces root; symlinks followed
    except (OSError, RuntimeError):  # a symlink loop
        return "is a symbolic link loop"
    if not resolved.is_relative_to(base):
        return "is outside the workspace"
    if resolved == base:
        return "is the workspace itself"
    if resolved.is_relative_to(base / "projects") or resolved == base / "flinkx.yaml":
        return "holds the workspace's sources"
    if ".git" in resolved.relative_to(base).parts:
        return "is inside .git"
    return ""


def workspace_cache_root(root: Path, cache_dir: str) -> Path | None:
    """`root/cache_dir`, or None when it is not a folder of flinkx's own (`own_folder_problem`):
    a symlink committed as `.flinkx-cache` could lead anywhere, the sources included."""
    return None if own_folder_problem(root, cache_dir) else root / cache_dir


def user_cache_dir() -> Path:
    """flinkx's folder outside every workspace (created owner-only on first use, `private_folder`).

    UsageError when `$FLINKX_HOME` is relative, or the folder is inside a workspace or a checkout: what a
    repository commits there (a planner jar, the key that signs caches) would be trusted (issue 41)."""
    return _user_cache_dir(os.environ.get(HOME_ENV, ""), os.environ.get("XDG_CACHE_HOME", ""), os.environ.get("HOME", ""))


@functools.lru_cache(maxsize=8)
def _user_cache_dir(explicit: str, xdg: str, home: str) -> Path:
    if explicit:
        if not os.path.isabs(explicit):
            raise UsageError(f"${HOME_ENV} is '{explicit}', a relative path: it would be a folder of whatever folder "
                             "flinkx runs in; set it to an absolute path outside every checkout")
        return _outside_checkouts(Path(explicit), f"${HOME_ENV}", ("flinkx.yaml", ".git"))
    if xdg and os.path.isabs(xdg):
        return _outside_checkouts(Path(xdg, "flinkx"), "$XDG_CACHE_HOME", ("flinkx.yaml", ".git"))
    try:
        default = Path.home() / ".cache" / "flinkx"
    except RuntimeError:  # no home folder: one per user in the temporary folder (checked as any other)
        return Path(tempfile.gettempdir(), f"flinkx-{os.getuid() if hasattr(os, 'getuid') else 'user'}")
    # a home folder kept in git (dotfiles) is common: only a workspace around the default is refused
    return _outside_checkouts(default, "the user cache folder", ("flinkx.yaml",))


def _outside_checkouts(folder: Path, named: str, markers: tuple[str, ...]) -> Path:
    """`folder`, unless it or a folder above it holds one of `markers` (a workspace's flinkx.yaml, a checkout's .git)."""
    for above in (folder, *folder.parents):
        for marker in markers:
            if os.path.lexists(above / marker):
                raise UsageError(f"{named} {folder} is inside {'a flinkx workspace' if marker == 'flinkx.yaml' else 'a git checkout'} "
                                 f"({above}): a repository could commit the jars and keys flinkx trusts there; "
                                 f"set ${HOME_ENV} to a folder outside every checkout")
    return folder


def private_folder(path: Path) -> Path:
    """`path`, made if missing (0700); OSError unless it is a real folder of this user that only
    this user can write: a folder another user made (in a shared temporary folder) could hold a jar."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        raise OSError(f"{path} is not a folder")
    if hasattr(os, "getuid") and (info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)):
        raise OSError(f"{path} belongs to another user or others can write to it; flinkx keeps its jar only in a folder of yours")
    return path
