"""Real git repositories holding the `shop` fixture workspace, at the root or in a subfolder."""
from __future__ import annotations

import json

import pytest

from tests.graph.gitrepo import Repo
from tests.graph.gitrepo import make_repo


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
