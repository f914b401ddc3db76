"""The planners of both targets: their jars unpacked once a machine (tests/conftest.py), Java checked at collection."""
from __future__ import annotations

import pytest

from flinkx_build.planner import jars
from flinkx_build.planner.session import open_planner
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import TARGETS
from tests.conftest import unpack_flink


@pytest.fixture(scope="session")
def jars_23():
    """Flink 2.3's jars (unpacked once a machine by flinkx's own fetch: tests/conftest.py)."""
    unpack_flink()
    return jars.jars_lib(TARGETS["2.3"])


def needs_planner(version: str):
    """Skip where this machine cannot run the planner even after fetching (no Java)."""
    problem = planner_problem(version, fetch=True)
    return pytest.mark.skipif(problem is not None, reason=f"no planner for Flink {version}: {problem}")


@pytest.fixture(scope="module")
def planners(jars_23):
    """Every target's planner (`targets.TARGETS`), opened once a module: version -> planner."""
    opened = {version: open_planner(version, fetch=False) for version in TARGETS}
    yield opened
    for planner in opened.values():
        planner.close()
