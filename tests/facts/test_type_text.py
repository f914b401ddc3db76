"""The one reader of type brackets (semantic/type_text.py): every user of ROW fields reads through it."""
from __future__ import annotations

import time

import pytest

from flinkx_build.load.tables import check_flink_type
from flinkx_build.type_text import row_fields
from flinkx_build.type_text import split_top
from flinkx_build.type_text import structure_problem
from flinkx_build.flink_types import field_type
from flinkx_build.flink_types import parse_type


def test_row_fields_read_quoted_names_nested_types_and_comments():
    text = "ROW<a INT, `b, c` DECIMAL(10, 2), `d``e` ROW<x INT, y MAP<STRING, INT>>, f STRING COMMENT 'one, two'>"
    assert row_fields(text) == [
        ("a", "INT"), ("b, c", "DECIMAL(10, 2)"), ("d`e", "ROW<x INT, y MAP<STRING, INT>>"), ("f", "STRING COMMENT 'one, two'"),
    ]
    assert row_fields("ROW(a INT, b STRING)") == [("a", "INT"), ("b", "STRING")]


@pytest.mark.parametrize("text, problem", [
    ("ROW<a STRING, `b BIGINT>", "unclosed backtick at character 15"),
    ("ROW<a STRING COMMENT 'x>", "unclosed quote at character 22"),
    ("ROW<a STRING", "'>' missing at the end"),
    ("ROW<a STRING>>", "unmatched '>' at character 14"),
    ("DECIMAL(10, 2>", "unmatched '>' at character 14"),
])
def test_a_type_that_is_not_well_formed_is_a_problem_not_an_exception(text, problem):
    assert structure_problem(text) == problem
    assert row_fields(text) == []
    assert check_flink_type(text) == text  # FX107 names the whole type; the hint says why


def test_the_semantic_model_reads_no_field_of_a_row_that_is_not_well_formed():
    assert field_type(parse_type("ROW<a STRING, `b BIGINT>"), ["b"]) is None  # was ValueError: substring not found
    assert field_type(parse_type("ROW<a STRING, `b c` BIGINT>"), ["b c"]).root == "BIGINT"


def test_splitting_is_linear_on_hostile_text():
    # many unclosed openers and backticks: one pass, never a search per character
    for text in ("<" * 200_000, "`" + "x" * 200_000, "'``'" * 50_000, "(`" * 100_000):
        started = time.perf_counter()
        split_top(text)
        assert time.perf_counter() - started < 10.0  # a hang guard: one pass takes well under a second


@pytest.mark.parametrize("head", ["ROW<a ", "ARRAY<", "MAP<STRING, "])
def test_a_type_nested_beyond_the_limit_is_a_problem_not_a_recursion_error(head):
    text = head * 1000 + "INT" + ">" * 1000  # was RecursionError in the loader's type check
    assert "nested more than 64 levels deep" in structure_problem(text)
    assert check_flink_type(text) == text
    assert check_flink_type(head * 60 + "INT" + ">" * 60) is None
