"""The lexer behind semantic task comparison and wildcard detection."""
from __future__ import annotations

import pytest

from flinkx_build.graph.sqlnorm import normalize_sql
from flinkx_build.graph.sqlnorm import wildcards


@pytest.mark.parametrize("a, b", [
    ("select a from t", "SELECT\n  a\nFROM t -- trailing comment"),
    ("SELECT a /* note */ FROM t", "SELECT a FROM t"),
    ("SELECT count(*) FROM t", "SELECT COUNT( * ) FROM t"),
    ("SELECT `order_id` FROM t", "SELECT order_id FROM t"),
    ("SELECT a FROM t /*+ OPTIONS('k'='v') */", "SELECT a FROM t /*+options( 'k' = 'v' )*/"),
    ("SELECT proc_time AS proctime()", "SELECT proc_time AS PROCTIME()"),
])
def test_equal_after_normalising(a, b):
    assert normalize_sql(a) == normalize_sql(b)


@pytest.mark.parametrize("a, b", [
    ("SELECT a FROM t", "SELECT A FROM t"),  # identifiers are case-sensitive in Flink
    ("SELECT 'x' FROM t", "SELECT 'X' FROM t"),  # string literals
    ("SELECT a FROM t /*+ OPTIONS('k'='v') */", "SELECT a FROM t /*+ OPTIONS('k'='w') */"),  # hints count
    ("SELECT `a b` FROM t", "SELECT `a  b` FROM t"),
    ("INSERT INTO t (a) SELECT 1", "INSERT INTO T (a) SELECT 1"),  # a table name before ( is not a call
    ("SELECT a FROM t WHERE x > 1", "SELECT a FROM t WHERE x > 10"),
])
def test_different_after_normalising(a, b):
    assert normalize_sql(a) != normalize_sql(b)


def test_wildcards():
    assert wildcards("SELECT * FROM t") == [None]
    assert wildcards("SELECT DISTINCT o.*, u.name FROM o JOIN u ON o.id = u.id") == ["o"]
    assert wildcards("SELECT a, `my t`.* FROM x AS `my t`") == ["my t"]
    assert wildcards("SELECT COUNT(*), a * b, 2*3 FROM t") == []
    assert wildcards("SELECT a FROM t -- SELECT * in a comment\n/* SELECT * */") == []
    assert wildcards("SELECT '*', a FROM t") == []
