"""Real git repositories holding the `shop` fixture workspace, at the root or in a subfolder."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

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


@pytest.fixture(params=["root", "subfolder"])
def shop(request, tmp_path) -> Repo:
    """The fixture workspace committed to a fresh repository, at its root or under warehouse/flink."""
    prefix = "" if request.param == "root" else "warehouse/flink"
    return make_repo(tmp_path / "repo", prefix)


@pytest.fixture
def shop_root(tmp_path) -> Repo:
    return make_repo(tmp_path / "repo", "")


@pytest.fixture
def impact(cli):
    """Run `flinkx impact` from the repository root; the JSON report and the exit code."""

    def run(repo: Repo, *args: str, fmt: str = "json"):
        ws = repo.prefix or "."
        result = cli("impact", ws, *args, "--format", fmt, cwd=repo.root)
        assert "Traceback" not in result.stdout + result.stderr, result.stderr
        data = json.loads(result.stdout) if fmt in ("json", "sarif") and result.stdout.strip() else None
        return result, data

    return run
