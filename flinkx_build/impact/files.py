"""Which files the loader would read at a revision or in the working tree, with their git blob ids.

`impact/scope.py` compares the two sides by these ids (a file with the same
id holds the same bytes) and keys each project's dependency index on them,
so an unchanged project is never read. Only plain files can be vouched for
so: a symlink, a submodule, a conflicted or a non-SHA-1 entry, or an
untracked folder git does not list file by file, makes the listing None,
and impact then loads both sides whole.
"""
from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from pathlib import PurePosixPath

from flinkx_build.impact.gitrev import WANTED
from flinkx_build.impact.gitrev import GitFailed
from flinkx_build.impact.gitrev import git

Files = dict[str, str]  # path below the workspace -> blob id
_REGULAR = ("100644", "100755")


def revision_files(repo: Path, commit: str, prefix: str) -> Files | None:
    """Every file below `flinkx.yaml` and `projects/` at `commit`, or None (see the module)."""
    try:
        raw = git(repo, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *_specs(prefix))
    except GitFailed:
        return None
    files: Files = {}
    for fields, path in _entries(raw):  # mode, type, object id
        if len(fields) != 3 or fields[1] != "blob" or fields[0] not in _REGULAR or len(fields[2]) != 40:
            return None
        files[_below(path, prefix)] = fields[2]
    return files


def worktree_files(repo: Path, prefix: str) -> Files | None:
    """The same for the working tree: git's index vouches for a file it holds unchanged
    (`git diff-files`, as `git status` decides); any other file (edited, untracked or
    ignored) is read and hashed as git would."""
    specs = _specs(prefix)
    try:
        staged = git(repo, "ls-files", "--stage", "-z", "--", *specs)
        dirty = set(git(repo, "-c", "core.trustctime=false", "diff-files", "--name-only", "-z", "--", *specs).split(b"\0"))
        others = git(repo, "ls-files", "--others", "-z", "--", *specs)
    except GitFailed:
        return None
    files: Files = {}
    for fields, path in _entries(staged):  # mode, object id, stage
        if len(fields) != 3 or fields[2] != "0" or fields[0] not in _REGULAR or len(fields[1]) != 40:
            return None
        if path not in dirty:
            files[_below(path, prefix)] = fields[1]
            continue
        blob = _blob_of(repo, path)
        if blob is False:
            return None
        if blob is not None:  # None: deleted in the working tree
            files[_below(path, prefix)] = blob
    for path in others.split(b"\0"):
        if not path:
            continue
        blob = _blob_of(repo, path)
        if not blob:  # a folder git does not list (a nested repository), a link, or gone meanwhile
            return None
        files[_below(path, prefix)] = blob
    return files


def _entries(raw: bytes) -> Iterator[tuple[list[str], bytes]]:
    """Each `<fields separated by spaces>\t<path>` entry of a `-z` listing of `git ls-tree` or `git ls-files --stage`."""
    for entry in raw.split(b"\0"):
        if entry:
            meta, _, path = entry.partition(b"\t")
            yield meta.decode("ascii", "replace").split(" "), path


def _blob_of(repo: Path, path: bytes) -> str | None | bool:
    """The blob id of a regular file; None when it is gone; False when it is something else."""
    if path.endswith(b"/"):
        return False
    full = os.path.join(os.fsencode(repo), path)
    try:
        info = os.lstat(full)
        if not stat.S_ISREG(info.st_mode):
            return False
        with open(full, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    except OSError:
        return False
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _specs(prefix: str) -> list[str]:
    return [str(PurePosixPath(prefix, w)) if prefix else w for w in WANTED]


def _below(path: bytes, prefix: str) -> str:
    rel = path.decode("utf-8", "surrogateescape")
    return rel[len(prefix) + 1:] if prefix else rel


def changed_files(repo: Path, commit: str, prefix: str) -> dict[str, str | None] | None:
    """The files below the workspace that differ between `commit` and the working tree (edited, added or
    removed), each with its blob id at `commit` (None: not there); None when a side cannot be listed."""
    base, head = revision_files(repo, commit, prefix), worktree_files(repo, prefix)
    if base is None or head is None:
        return None
    return {path: base.get(path) for path in base.keys() | head.keys() if base.get(path) != head.get(path)}


def blob_bytes(repo: Path, blob: str) -> bytes | None:
    """A blob's bytes (None when git cannot give them, or they are past the loader's size limit)."""
    from flinkx_build.limits import MAX_FILE_BYTES

    try:
        data = git(repo, "cat-file", "blob", blob)
    except GitFailed:
        return None
    return data if len(data) <= MAX_FILE_BYTES else None


def merge_base(repo: Path, commit: str) -> str:
    """Where HEAD left `commit`'s line (`git merge-base`): a pull request's own changes start there.
    `commit` itself when git finds none (unrelated histories, or no HEAD yet)."""
    try:
        found = git(repo, "merge-base", commit, "HEAD").decode().strip()
    except GitFailed:
        return commit
    return found or commit
