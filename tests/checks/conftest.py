"""The real Flink planner for the agreement tests (one JVM per test session, as in tests/semantic)."""
from tests.semantic.conftest import flink  # noqa: F401 - the session-scoped fixture
