"""Completion against the analysis of an older text (what the server uses while one types)."""
from __future__ import annotations

import shutil

import pytest

from flinkx_build.lsp.analysis import Models
from flinkx_build.lsp.complete import completions
from tests.conftest import EXAMPLE

TASK = "projects/dwd/tasks/orders/enrich_orders.sql"


@pytest.fixture(scope="module")
def analysed(tmp_path_factory):
    root = tmp_path_factory.mktemp("complete") / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    path = root / TASK
    text = path.read_text()
    return Models(use_cache=False).analyse_task(path, text), text


def cursor(text: str, marker: str = "|") -> tuple[str, int, int]:
    at = text.index(marker)
    line = text.count("\n", 0, at) + 1
    return text.replace(marker, "", 1), line, at - (text.rfind("\n", 0, at) + 1) + 1


def test_a_half_typed_qualifier_uses_the_older_parse(analysed):
    analysis, text = analysed
    typed, line, col = cursor(text.replace("  o.line_no,", "  p.|", 1))
    labels = [c.label for c in completions(analysis, typed, line, col)]
    assert {"product_name", "category_id", "brand"} <= set(labels)  # p is dim.dim_product
    assert "order_id" not in labels


def test_a_statement_added_since_needs_a_new_analysis(analysed):
    analysis, text = analysed
    typed, line, col = cursor(text + "\nINSERT INTO dwd_orders SELECT o.| FROM ods.kafka_orders AS o;\n")
    assert completions(analysis, typed, line, col) is None
