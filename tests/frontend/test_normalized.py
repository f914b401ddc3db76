"""Facts for impact analysis, read from the one parse: the normalised statement and its wildcards."""
from __future__ import annotations

import pytest

from flinkx_build.frontend.parse import parse_task_text


def facts(sql: str):
    [chunk] = parse_task_text(sql, {})
    assert chunk.statement.syntax is None, chunk.statement.syntax
    return chunk.statement


@pytest.mark.parametrize("a, b", [
    ("select a from t", "SELECT\n  a\nFROM t -- trailing comment"),
    ("SELECT a /* note */ FROM t", "SELECT a FROM t"),
    ("SELECT count(*) FROM t", "SELECT COUNT( * ) FROM t"),
    ("SELECT `order_id` FROM t", "SELECT order_id FROM t"),
    ("SELECT a FROM t /*+ OPTIONS('k'='v') */", "SELECT a FROM t /*+options( 'k' = 'v' )*/"),
    ("SELECT CAST(a AS string) FROM t", "SELECT cast(a as STRING) FROM t"),
])
def test_equal_after_normalising(a, b):
    assert facts(a).normalized == facts(b).normalized


@pytest.mark.parametrize("a, b", [
    ("SELECT a FROM t", "SELECT A FROM t"),  # identifiers are case-sensitive in Flink
    ("SELECT 'x' FROM t", "SELECT 'X' FROM t"),  # string literals
    ("SELECT a FROM t /*+ OPTIONS('k'='v') */", "SELECT a FROM t /*+ OPTIONS('k'='w') */"),  # hints count
    ("SELECT `a b` FROM t", "SELECT `a  b` FROM t"),
    ("INSERT INTO t (a) SELECT 1", "INSERT INTO T (a) SELECT 1"),  # a table name is not a keyword
    ("SELECT a FROM t WHERE x > 1", "SELECT a FROM t WHERE x > 10"),
    ("SELECT `value` FROM t", "SELECT `VALUE` FROM t"),  # a quoted reserved word keeps its case
])
def test_different_after_normalising(a, b):
    assert facts(a).normalized != facts(b).normalized


@pytest.mark.parametrize("sql, expected", [
    ("SELECT * FROM t", [None]),
    ("SELECT DISTINCT o.*, u.name FROM o JOIN u ON o.id = u.id", ["o"]),
    ("SELECT a, `my t`.* FROM x AS `my t`", ["my t"]),
    ("SELECT COUNT(*), a * b, 2*3 FROM t", []),
    ("SELECT a FROM t -- SELECT * in a comment\n/* SELECT * */", []),
    ("SELECT '*', a FROM t", []),
])
def test_wildcards(sql, expected):
    assert facts(sql).wildcards == expected
