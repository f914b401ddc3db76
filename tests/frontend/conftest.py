"""Flink's own parser for the front-end's tests: one JVM per test module, closed at its end
(a gateway's threads left running would keep later tests from forking a parser process)."""
from __future__ import annotations

import pytest

from flinkx_build.validate.engine import FlinkSession
from flinkx_build.validate.engine import flink_available


@pytest.fixture(scope="module")
def flink(tmp_path_factory):
    reason = flink_available()
    if reason is not None:
        pytest.skip(f"Flink validation unavailable: {reason}")
    with FlinkSession(tmp_path_factory.mktemp("flink-logs")) as session:
        yield session
