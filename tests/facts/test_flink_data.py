"""The record files derived once from the real Flink 1.20 (by the retired scripts/gen_flink_data.py; no JVM needed).

Seed 001 (保留关键字): "如果使用以下字符串作为字段名，请在使用时使用反引号将该字段名包起来，例如 `value`,
`count`" - if these strings are used as field names, quote them with backticks.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SEEDS

DATA = Path(__file__).resolve().parents[2] / "flinkx_build" / "data"
SEED = SEEDS / "001_90a7bf2ca5333a9b.txt"


def _entries(name: str) -> list[list[str]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line and not line.startswith("#")]


@pytest.fixture(scope="module")
def functions() -> dict[str, set[str]]:
    return {fields[0]: set(fields[1].split(",")) for fields in _entries(
        "flink_builtin_functions.txt")}


@pytest.fixture(scope="module")
def reserved() -> dict:
    return json.loads((DATA / "flink_reserved_words.json").read_text(encoding="utf-8"))


def test_functions_file_has_header_and_is_sorted(functions):
    text = (DATA / "flink_builtin_functions.txt").read_text(encoding="utf-8")
    assert text.startswith("# Flink 1.20")
    names = [fields[0] for fields in _entries("flink_builtin_functions.txt")]
    assert names == sorted(names)
    assert all(name == name.upper() for name in names)
    assert len(names) == len(set(names)) > 150


@pytest.mark.parametrize("name", [
    "SUBSTRING", "CONCAT_WS", "TO_TIMESTAMP", "PROCTIME", "CAST", "TRY_CAST", "EXTRACT",
    "POSITION", "TRIM", "OVERLAY", "CURRENT_TIMESTAMP", "TUMBLE", "HOP", "CUMULATE", "SESSION",
    "TUMBLE_START", "COALESCE", "IF", "ROW", "ARRAY", "MAP", "COUNT", "SUM", "DATE_FORMAT",
    "JSON_VALUE", "REGEXP_EXTRACT", "UNIX_TIMESTAMP", "FROM_UNIXTIME", "ARRAY_CONTAINS",
])
def test_known_builtins_are_listed(functions, name):
    assert name in functions


def test_function_sources(functions):
    assert "show" in functions["COALESCE"]  # SHOW FUNCTIONS lists it
    assert "operator" in functions["TO_TIMESTAMP"]  # SHOW FUNCTIONS does not
    assert "syntax" in functions["CAST"]
    # Table-API-only names from SHOW FUNCTIONS do not resolve in SQL and are left out
    assert not {"DATEFORMAT", "ISNULL", "CHARLENGTH", "TOTIMESTAMP"} & set(functions)
    assert all(sources <= {"show", "operator", "syntax"} for sources in functions.values())


def test_reserved_words_shape(reserved):
    assert reserved["flink_version"].startswith("1.20")
    assert reserved["generated_by"]
    assert set(reserved["words"].values()) == {"error", "warning"}


def test_reserved_words_count_the_documented_list(reserved):
    # Seed 001 documents 553 reserved words; every one gets a verdict.
    assert len(reserved["words"]) == 553


@pytest.mark.skipif(not SEED.is_file(), reason=f"seed 001 is not beside the repository ({SEED})")
def test_reserved_words_are_the_documented_list(reserved):
    text = SEED.read_text(encoding="utf-8")
    section = next(line for line in text.splitlines() if line.startswith("保留关键字"))
    documented = {w.strip().upper() for w in section.split("。")[-1].split("父主题")[0]
                  .split(",") if w.strip()}
    assert documented == set(reserved["words"])


@pytest.mark.parametrize("word", [
    "VALUE", "TIMESTAMP", "COUNT", "POSITION", "YEAR", "HOUR", "MINUTE", "RESULT", "TIME",
    "DATE", "USER", "LANGUAGE", "PARTITION", "OFFSET", "WINDOW", "SELECT", "FROM", "END-EXEC",
])
def test_words_flink_rejects_unquoted_are_errors(reserved, word):
    assert reserved["words"][word] == "error"


@pytest.mark.parametrize("word", ["A", "C", "G", "K", "M", "NAME", "TYPE", "KEY", "STATE",
                                  "DATA", "SOURCE", "VERSION"])
def test_words_flink_accepts_unquoted_are_warnings(reserved, word):
    assert reserved["words"][word] == "warning"


def test_types_file():
    entries = _entries("flink_types.txt")
    names = {fields[0] for fields in entries}
    assert {"STRING", "BIGINT", "DECIMAL", "TIMESTAMP", "TIMESTAMP_LTZ", "ARRAY", "MAP", "ROW",
            "INT", "TIMESTAMP WITH LOCAL TIME ZONE"} <= names
    assert all(len(fields) == 3 and fields[2] in {"seed", "flink"} for fields in entries)
    # Flink's DDL parser refuses INTERVAL as a column type although seed 001 lists it.
    assert "INTERVAL" not in names
