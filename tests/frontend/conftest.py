"""Flink's own parser for the front-end's tests: one JVM per test module, closed at its end
(a gateway's threads left running would keep later tests from forking a parser process)."""
from __future__ import annotations

import pytest

from tests.helpers import flink_session


@pytest.fixture(scope="module")
def flink(tmp_path_factory):
    with flink_session(tmp_path_factory) as session:
        yield session
