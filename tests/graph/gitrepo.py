"""Helpers for tests that need real git repositories (the git CLI in tmp_path)."""
from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

FIXTURE = Path(__file__).parent / "fixtures" / "shop"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "flinkx test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "flinkx test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str) -> str:
    env = {**os.environ, **GIT_ENV, "HOME": str(repo.parent)}
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=repo, env=env, capture_output=True, text=True, check=True,
    )
    return done.stdout.strip()


class Repo:
    """A git repository with the fixture workspace committed as the first commit."""

    def __init__(self, root: Path, prefix: str) -> None:
        self.root = root
        self.prefix = prefix
        self.ws = root / prefix if prefix else root

    def path(self, rel: str) -> Path:
        return self.ws / rel

    def read(self, rel: str) -> str:
        return self.path(rel).read_text(encoding="utf-8")

    def write(self, rel: str, text: str) -> None:
        path = self.path(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")

    def edit(self, rel: str, old: str, new: str) -> None:
        text = self.read(rel)
        assert old in text, f"{old!r} not in {rel}"
        self.path(rel).write_text(text.replace(old, new), encoding="utf-8")

    def remove(self, rel: str) -> None:
        git(self.root, "rm", "-q", str(self.path(rel).relative_to(self.root)))

    def move(self, src: str, dst: str) -> None:
        self.path(dst).parent.mkdir(parents=True, exist_ok=True)
        git(self.root, "mv", str(self.path(src).relative_to(self.root)), str(self.path(dst).relative_to(self.root)))

    def commit(self, message: str) -> str:
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "--allow-empty", "-m", message)
        return git(self.root, "rev-parse", "HEAD")

    def repo_path(self, rel: str) -> str:
        """A workspace path as the report shows it (relative to the repository root)."""
        return f"{self.prefix}/{rel}" if self.prefix else rel


def make_repo(root: Path, prefix: str) -> Repo:
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n")
    if prefix:  # a larger repository: the workspace is one folder of it
        (root / "README.md").write_text("# shop monorepo\n")
        (root / "services" / "orders").mkdir(parents=True)
        (root / "services" / "orders" / "main.py").write_text("print('orders')\n")
    repo = Repo(root, prefix)
    shutil.copytree(FIXTURE, repo.ws, ignore=shutil.ignore_patterns(".flinkx-cache", "build"), dirs_exist_ok=True)
    repo.commit("base: the shop workspace")
    return repo


def repo_with(root: Path, files: dict[str, str]) -> Repo:
    """A repository whose first commit is a workspace written from {path: text}."""
    root.mkdir(parents=True)
    git(root, "init", "-q")
    (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n")
    repo = Repo(root, "")
    for rel, text in files.items():
        repo.write(rel, text)
    repo.commit("base")
    return repo
