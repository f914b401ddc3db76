"""`flinkx impact` on real git repositories holding the `shop` workspace (tests/graph/gitrepo.py)."""
from __future__ import annotations

import json

import pytest

from tests.graph.conftest import shop  # noqa: F401 (the shop repositories the graph tests use too)
from tests.graph.conftest import shop_root  # noqa: F401
from tests.graph.gitrepo import Repo


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
