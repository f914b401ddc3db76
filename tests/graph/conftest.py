"""Real git repositories holding the `shop` fixture workspace, at the root or in a subfolder."""
from __future__ import annotations

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
