"""The `shop` repositories of the graph tests (tests/graph/gitrepo.py), for lineage and OpenLineage."""
from __future__ import annotations

from tests.graph.conftest import shop  # noqa: F401
