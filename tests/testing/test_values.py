"""Fixture values converted by Flink column types (pure Python)."""
from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from flinkx_build.testing.values import FlinkType
from flinkx_build.testing.values import convert
from flinkx_build.testing.values import parse_type
from flinkx_build.testing.values import show
from flinkx_build.testing.values import to_wire


@pytest.mark.parametrize("text, expected", [
    ("STRING", "STRING"), ("VARCHAR(20)", "STRING"), ("INTEGER", "INT"), ("DECIMAL(12, 2)", "DECIMAL(12, 2)"),
    ("TIMESTAMP(3)", "TIMESTAMP(3)"), ("TIMESTAMP", "TIMESTAMP(6)"),
    ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"), ("TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(3)"),
    ("BIGINT NOT NULL", "BIGINT"), ("ARRAY<STRING>", "ARRAY<STRING>"), ("MAP<STRING, INT>", "MAP<STRING, INT>"),
    ("ROW<a INT, `b c` STRING>", "ROW<a INT, b c STRING>"),
    ("ROW<name STRING, price DECIMAL(10, 2), tags ARRAY<STRING>>", "ROW<name STRING, price DECIMAL(10, 2), tags ARRAY<STRING>>"),
])
def test_parse_type(text, expected):
    assert str(parse_type(text)) == expected


def test_unknown_type_is_an_error():
    with pytest.raises(ValueError, match="unknown type"):
        parse_type("GEOMETRY")


def test_values_by_type():
    assert convert("10.5", parse_type("DECIMAL(12, 2)")) == Decimal("10.50")
    assert convert(7, parse_type("STRING")) == "7"
    assert convert("42", parse_type("BIGINT")) == 42
    assert convert("true", parse_type("BOOLEAN")) is True
    assert convert("2026-01-01 10:00:05.123", parse_type("TIMESTAMP(3)")) == dt.datetime(2026, 1, 1, 10, 0, 5, 123000)
    # what Flink sends back (ISO, seconds left out when zero) equals what a test writes
    assert convert("2026-01-01T10:00", parse_type("TIMESTAMP(3)")) == convert("2026-01-01 10:00:00", parse_type("TIMESTAMP(3)"))
    assert convert("2026-01-01T10:00:00Z", parse_type("TIMESTAMP_LTZ(3)")) == dt.datetime(2026, 1, 1, 10)
    assert convert(dt.date(2026, 1, 2), parse_type("DATE")) == dt.date(2026, 1, 2)
    row = parse_type("ROW<name STRING, price DECIMAL(10, 2)>")
    assert convert({"price": "1", "NAME": "tea"}, row) == ("tea", Decimal("1.00"))
    assert convert({"a": 1}, parse_type("MAP<STRING, INT>")) == (("a", 1),)
    assert convert(None, parse_type("INT")) is None


@pytest.mark.parametrize("raw, type_text, message", [
    ("2026-01-01 25:00:00", "TIMESTAMP(3)", "'2026-01-01 25:00:00' is not a valid TIMESTAMP(3); write 'YYYY-MM-DD HH:MM:SS[.fff]'"),
    ("2026-01-01 10:00:00.1234", "TIMESTAMP(3)", "more than 3 fractional digits"),
    ("1.005", "DECIMAL(12, 2)", "more than 2 decimal places"),
    ("123456", "DECIMAL(5, 2)", "more than 3 digits before the point"),
    ("abc", "INT", "'abc' is not a valid INT"),
    (300, "TINYINT", "out of range for TINYINT"),
    (True, "INT", "is not a valid INT"),
    ("maybe", "BOOLEAN", "'maybe' is not a valid BOOLEAN"),
    ({"colour": "red"}, "ROW<name STRING>", "no field 'colour' (fields: name)"),
])
def test_values_that_do_not_convert(raw, type_text, message):
    with pytest.raises(ValueError) as error:
        convert(raw, parse_type(type_text))
    assert message in str(error.value)


def test_wire_form_is_what_the_java_side_parses():
    assert to_wire(Decimal("10.50"), parse_type("DECIMAL(12, 2)")) == "10.50"
    assert to_wire(dt.datetime(2026, 1, 1, 10, 0, 5), parse_type("TIMESTAMP(3)")) == "2026-01-01T10:00:05"
    assert to_wire(dt.datetime(2026, 1, 1, 10), parse_type("TIMESTAMP_LTZ(3)")) == "2026-01-01T10:00:00Z"
    row = parse_type("ROW<name STRING, price DECIMAL(10, 2)>")
    assert to_wire(("tea", Decimal("1.00")), row) == ["tea", "1.00"]
    assert to_wire((("a", 1),), parse_type("MAP<STRING, INT>")) == [["a", 1]]
    assert to_wire(5, FlinkType("INT")) == 5


def test_show_writes_values_as_a_test_author_would():
    assert show(Decimal("15.50")) == '"15.50"'
    assert show(dt.datetime(2026, 1, 1, 10, 0, 5)) == "2026-01-01 10:00:05"
    assert show(dt.datetime(2026, 1, 1, 10, 0, 5, 500000)) == "2026-01-01 10:00:05.500"
    assert show(None) == "null"
    assert show("app") == "app"
    assert show("null") == "'null'"
