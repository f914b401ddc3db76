"""Issue 10, check 13: "did you mean" looks across projects, and a meta table whose YAML does not
load is reported once, at the YAML, not as "unknown table" in every task that uses it."""
from __future__ import annotations

import shutil

import pytest

from tests.conftest import EXAMPLE


@pytest.fixture
def example(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    return root


def lint_lines(cli, root):
    result = cli("lint", str(root))
    return [line for line in result.stdout.splitlines() if ": FX" in line]


def test_table_of_another_project(cli, example):
    task = example / "projects/ods/tasks/debug/peek_order_events.sql"
    task.write_text(task.read_text() + "\nINSERT INTO peek_sink SELECT * FROM dwd_orders;\n")
    (line,) = [l for l in lint_lines(cli, example) if " FX130 " in l]
    assert "unknown table 'dwd_orders' in project 'ods' (did you mean 'dwd.dwd_orders'?)" in line


def test_function_of_another_project(cli, example):
    task = example / "projects/dwd/tasks/orders/enrich_orders.sql"
    task.write_text(task.read_text().replace("dim:parse_ua(o.user_agent)", "parse_ua(o.user_agent)"))
    (line,) = [l for l in lint_lines(cli, example) if " FX141 " in l]
    assert "(did you mean 'dim:parse_ua'?)" in line


def test_broken_yaml_does_not_cascade(cli, example):
    (example / "projects/dim/tables/dim_product.yaml").write_text("name: dim_product\ncolumns: [\n")
    lines = lint_lines(cli, example)
    assert lines and all("dim_product.yaml" in l for l in lines), lines  # one place, the YAML
