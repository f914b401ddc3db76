"""The planners of both targets, once a test session: 1.20 from the flink extra, 2.3 fetched into the session's user cache."""
from __future__ import annotations

import sys

import pytest

from flinkx_build.planner import jars
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import TARGETS


@pytest.fixture(scope="session")
def jars_23():
    """Flink 2.3's jars in this session's user cache (`tests/conftest.py` gives each session its own): fetched
    by pip from the package index once a session, or taken from $FLINKX_WHEEL_DIR (`.ci/run` fills it once
    a machine) when the wheel there has the pinned checksum."""
    return jars.jars_lib(TARGETS["2.3"], sys.stderr)


def needs_planner(version: str):
    """Skip where this machine cannot run the planner even after fetching (no Java, no flink extra)."""
    problem = planner_problem(version, fetch=True)
    return pytest.mark.skipif(problem is not None, reason=f"no planner for Flink {version}: {problem}")
