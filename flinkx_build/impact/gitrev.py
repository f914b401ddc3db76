"""A workspace as it was at a git revision, written to a temporary folder.

`flinkx impact` builds both sides straight from git, so there is no stored
manifest to go stale. Only what the loader reads is written (`flinkx.yaml`
and `projects/`), read with `git ls-tree` and one `git cat-file --batch`
rather than `git archive`, whose `export-ignore` / `export-subst` attributes
could drop or rewrite files. The folder lives in the system temp dir and is
removed when the `checkout` context ends, whatever happens inside it. Files
the working tree holds unchanged are hard-linked from it (`_write_blobs`).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import stat
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from pathlib import PurePosixPath
from typing import Iterator

from flinkx_build import child_process
from flinkx_build.errors import UsageError
from flinkx_build.limits import MAX_FILE_BYTES

WANTED = ("flinkx.yaml", "projects")  # everything load_workspace reads


@dataclass(frozen=True)
class Revision:
    spec: str  # as the user wrote it
    commit: str  # full object name

    @property
    def label(self) -> str:
        short = self.commit[:10]
        return short if self.commit.startswith(self.spec) else f"{self.spec} ({short})"


def _git(repo: Path, *args: str, input_: bytes | None = None) -> bytes:
    # pathspecs are literal (a file named like a glob is itself), and git's messages are read in one language
    env = {"GIT_LITERAL_PATHSPECS": "1", "LC_ALL": "C"}
    program = child_process.find_program("git")
    if program is None:
        raise UsageError("git is not installed (flinkx impact reads revisions with git)")
    done = child_process.run([program, "-C", os.path.abspath(repo), *args], input=input_, capture_output=True, env=env,
                             check=False)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise _GitFailed(message[-1] if message else f"git {args[0]} failed")
    return done.stdout


class _GitFailed(Exception):
    pass


git = _git  # for `impact/files.py`, which lists the same files with their blob ids
GitFailed = _GitFailed


def repo_root(path: Path) -> Path:
    try:
        out = _git(path, "rev-parse", "--show-toplevel")
    except _GitFailed:
        raise UsageError(f"{path}: not inside a git repository (flinkx impact compares git revisions)") from None
    return Path(out.decode().strip()).resolve()


def workspace_prefix(repo: Path, workspace_root: Path) -> str:
    """The workspace folder relative to the repository root ('' at the root)."""
    rel = workspace_root.resolve().relative_to(repo)
    return rel.as_posix() if rel.parts else ""


def resolve_revision(repo: Path, spec: str) -> Revision:
    if not spec or spec.startswith("-"):
        raise UsageError(f"invalid revision '{spec}'")
    try:
        out = _git(repo, "rev-parse", "--verify", "--quiet", f"{spec}^{{commit}}")
    except _GitFailed:
        out = b""
    commit = out.decode().strip()
    if not commit:
        raise UsageError(f"unknown revision '{spec}' (not a commit in {repo})")
    return Revision(spec, commit)


def _listing(repo: Path, commit: str, prefix: str) -> list[tuple[str, str]]:
    """(object name, path below the workspace) of every regular file flinkx reads."""
    specs = [str(PurePosixPath(prefix, w)) if prefix else w for w in WANTED]
    raw = _git(repo, "ls-tree", "-r", "-z", "--full-tree", commit, "--", *specs)
    files = []
    for entry in raw.split(b"\0"):
        if not entry:
            continue
        meta, _, path = entry.partition(b"\t")
        mode, kind, obj = meta.decode().split(" ")
        if kind != "blob" or mode not in ("100644", "100755"):
            continue  # symlinks and submodules are not workspace files
        rel = path.decode("utf-8", "surrogateescape")
        if prefix:
            rel = rel[len(prefix) + 1 :]
        files.append((obj, rel))
    return files


def _write_blobs(repo: Path, files: list[tuple[str, str]], dest: Path, worktree: Path | None = None, prefix: str = "") -> None:
    """Write each blob below `dest`; one the working tree holds byte for byte is hard-linked from it.

    Creating a few thousand files costs seconds on some disks, a hard link a
    fraction of it, and in a pull request almost every file is unchanged. A
    link is made only to a regular file (never through a symlink) whose bytes
    are the blob's: git's index says so for a file it tracks with that blob
    and holds unchanged (`_clean_in_index`, as `git status` decides), else its
    bytes are hashed. So the folder holds the revision exactly; nothing ever
    writes into it.
    """
    if not files:
        return
    wanted = [(obj, rel) for obj, rel in files if ".." not in PurePosixPath(rel).parts]
    clean = _clean_in_index(repo, prefix) if worktree is not None else {}
    linked = set()
    for obj, rel in wanted if worktree is not None else ():
        parts = PurePosixPath(rel).parts
        source = worktree.joinpath(*parts)
        same = _regular_and_small(source) if clean.get(rel) == obj else _same_blob(source, obj)
        if same and _link(source, dest.joinpath(*parts)):
            linked.add(rel)
    rest = [(obj, rel) for obj, rel in wanted if rel not in linked]
    if not rest:
        return
    out = _git(repo, "cat-file", "--batch", input_="".join(f"{obj}\n" for obj, _ in rest).encode())
    pos = 0
    for obj, rel in rest:
        end = out.index(b"\n", pos)
        header = out[pos:end].split(b" ")
        if len(header) != 3:
            raise UsageError(f"git cat-file could not read {rel} ({obj})")
        size = int(header[2])
        body = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
        target = dest.joinpath(*PurePosixPath(rel).parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(body)


def _clean_in_index(repo: Path, prefix: str) -> dict[str, str]:
    """Workspace-relative path -> blob id, for each regular file the index tracks and the working
    tree holds unchanged (`git diff-files`: git's stat check, content-checked where racy); {} when git cannot say.

    Two git calls instead of hashing every file of the workspace."""
    specs = [str(PurePosixPath(prefix, w)) if prefix else w for w in WANTED]
    try:
        staged = _git(repo, "ls-files", "--stage", "-z", "--", *specs)
        # ctime aside: the hard links of an earlier checkout changed every linked file's (its link count)
        dirty = set(_git(repo, "-c", "core.trustctime=false", "diff-files", "--name-only", "-z", "--", *specs).split(b"\0"))
    except (_GitFailed, UsageError):
        return {}
    clean = {}
    for entry in staged.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        fields = meta.decode("ascii", "replace").split(" ")
        # stage 0 only (a conflicted path is never clean), regular files only
        if len(fields) != 3 or fields[2] != "0" or fields[0] not in ("100644", "100755") or path in dirty:
            continue
        rel = path.decode("utf-8", "surrogateescape")
        if prefix:
            if not rel.startswith(prefix + "/"):
                continue
            rel = rel[len(prefix) + 1 :]
        clean[rel] = fields[1]
    return clean


def _regular_and_small(path: Path) -> bool:
    """A regular file (not a link) no larger than the loader reads."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= MAX_FILE_BYTES


def _same_blob(path: Path, obj: str) -> bool:
    """True when `path` is a regular file (not a link) whose git blob id is `obj` (SHA-1 repositories)."""
    # a folder on the way may be a link out of the tree: never read more than the loader would
    if len(obj) != 40 or not _regular_and_small(path):
        return False
    try:
        data = path.read_bytes()
    except OSError:
        return False
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest() == obj


def _link(source: Path, target: Path) -> bool:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(source, target, follow_symlinks=False)
        return True
    except OSError:  # another file system, or none with hard links: the blob is written instead
        return False


@contextmanager
def checkout(repo: Path, revision: Revision, prefix: str, folders: frozenset[str] | None = None,
             headers: bool = True) -> Iterator[Path | None]:
    """The workspace at `revision` in a temporary folder, or None if it has no flinkx.yaml there.

    `folders`: the project folders to write whole; of every other one only its `project.yaml`, or
    (`headers=False`) nothing: what a load limited to `folders` reads (`load_workspace`'s `Only`).

    SIGTERM is held back until the folder is made and its removal is due: impact's forked child
    turns SIGTERM into SystemExit, and one raised between `mkdir` and the `try` left the folder
    behind (a test saw it once in CI)."""
    folder: Path | None = None
    held = _hold_sigterm()
    try:
        folder = Path(tempfile.mkdtemp(prefix="flinkx-rev-"))
        held = _release_sigterm(held)  # a SIGTERM that came meanwhile is handled here, inside the `try`
        try:
            files = _listing(repo, revision.commit, prefix)
        except _GitFailed as exc:
            raise UsageError(f"cannot read revision '{revision.spec}': {exc}") from None
        if not any(rel == "flinkx.yaml" for _, rel in files):
            yield None
            return
        if folders is not None:
            files = _only_folders(files, folders, folder, headers)
        try:
            _write_blobs(repo, files, folder, repo / prefix if prefix else repo, prefix)
        except _GitFailed as exc:
            raise UsageError(f"cannot read revision '{revision.spec}': {exc}") from None
        yield folder
    finally:
        _release_sigterm(held)
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _only_folders(files: list[tuple[str, str]], folders: frozenset[str], dest: Path, headers: bool) -> list[tuple[str, str]]:
    """flinkx.yaml, the files of `folders`, and with `headers` every other project's project.yaml and
    folder (one without a project.yaml is still a project)."""
    kept, made = [], set()
    for obj, rel in files:
        parts = rel.split("/", 2)  # as git lists them
        if len(parts) == 3 and parts[0] == "projects" and parts[1] not in folders:
            if not headers:
                continue
            if parts[1] not in made and parts[1] != "..":
                (dest / "projects" / parts[1]).mkdir(parents=True, exist_ok=True)
                made.add(parts[1])
            if parts[2] != "project.yaml":
                continue
        kept.append((obj, rel))
    return kept


def _hold_sigterm() -> bool:
    """Block SIGTERM for this thread (POSIX); True when this call blocked it."""
    if not hasattr(signal, "pthread_sigmask"):
        return False
    return signal.SIGTERM not in signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})


def _release_sigterm(held: bool) -> bool:
    """Unblock SIGTERM if `_hold_sigterm` blocked it (a pending one is handled now); False."""
    if held:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    return False
