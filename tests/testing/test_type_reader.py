"""Fixture types are read by the one reader of Flink type strings (flinkx_build/type_text.py).

`testing/values.parse_type` used its own tokenizer: a doubled backtick in a ROW field name stayed
doubled, and a type with an unclosed bracket was read as if it were closed.
"""
from __future__ import annotations

import pytest

from flinkx_build.type_text import row_fields
from flinkx_build.type_text import structure_problem
from flinkx_build.testing.values import parse_type

ROWS = [
    "ROW<a INT, `b c` STRING>",
    "ROW<`a``b` INT, tags ARRAY<STRING>>",
    "ROW<name STRING 'the name, with a comma', price DECIMAL(10, 2)> NOT NULL",
    "ROW<inner ROW<`x y` BIGINT, z MAP<STRING, INT>>>",
]


@pytest.mark.parametrize("text", ROWS)
def test_row_field_names_are_the_ones_type_text_reads(text):
    assert [name for name, _ in parse_type(text).fields] == [name for name, _ in row_fields(text.removesuffix(" NOT NULL"))]


def test_a_doubled_backtick_in_a_field_name_is_one_backtick():
    assert parse_type("ROW<`a``b` INT>").fields[0][0] == "a`b"


@pytest.mark.parametrize("text", ["ROW<a INT", "ARRAY<STRING", "ROW<`a INT>", "DECIMAL(10, 2"])
def test_a_type_that_is_not_well_formed_is_the_structure_problem(text):
    with pytest.raises(ValueError) as raised:
        parse_type(text)
    assert str(raised.value) == structure_problem(text)


@pytest.mark.parametrize("text, expected", [
    ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"),
    ("ARRAY<ROW<a INT>> NOT NULL", "ARRAY<ROW<a INT>>"),
    ("MAP<STRING, ARRAY<DECIMAL(12, 2)>>", "MAP<STRING, ARRAY<DECIMAL(12, 2)>>"),
    ("DOUBLE PRECISION", "DOUBLE"),
    ("CHARACTER VARYING(10)", "STRING"),
    ("ROW<a INT 'with (brackets) and <angles>'>", "ROW<a INT>"),
])
def test_words_around_the_brackets(text, expected):
    assert str(parse_type(text)) == expected
