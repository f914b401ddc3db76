"""The Ververica cookbook corpus (valid Flink 1.20 SQL) parses with no syntax problem.

Every statement of `tests/fixtures/corpus/flink-sql-cookbook/*.sql` is accepted by
Flink 1.20's own parser (see the corpus README), so any `syntax` problem here is
a false FX120. A few facts are checked too, on statements that used to fail.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from flinkx_build.frontend.parse import parse_task_text
from tests.conftest import COOKBOOK as CORPUS


def _corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.sql"))


def _statements(name: str):
    return [pc.statement for pc in parse_task_text((CORPUS / name).read_text(encoding="utf-8"), {})]


def _defining(name: str, table: str):
    [stmt] = [s for s in _statements(name) if s.defines == table]
    return stmt


@pytest.mark.parametrize("path", _corpus_files(), ids=lambda p: p.name)
def test_every_corpus_statement_parses(path):
    chunks = parse_task_text(path.read_text(encoding="utf-8"), {})
    assert chunks, f"{path.name}: no statements"
    problems = [
        f"{path.name}:{pc.statement.syntax.pos.line}:{pc.statement.syntax.pos.col}: {pc.statement.syntax.message}"
        for pc in chunks
        if pc.statement.syntax is not None
    ]
    assert problems == []


def test_corpus_is_all_there():
    files = _corpus_files()
    statements = sum(len(parse_task_text(f.read_text(encoding="utf-8"), {})) for f in files)
    # README: 36 files, 128 statements (BEGIN STATEMENT SET / END included).
    assert len(files) >= 36 and statements >= 128, (len(files), statements)


def test_create_table_with_like_defines_and_reads():
    """``CREATE TEMPORARY TABLE x WITH (...) LIKE y (EXCLUDING OPTIONS)`` without columns."""
    name = "joins__03_kafka_join.sql"
    for faker, source in (("currency_rates_faker", "currency_rates"), ("transactions_faker", "transactions")):
        stmt = _defining(name, faker)
        assert stmt.kind == "create_table"
        assert [(t.parts, t.role) for t in stmt.tables] == [([source], "read")]
    # The data generators feed the real tables; the temporal join still reads a lookup.
    roles = {(tuple(t.parts), t.role) for s in _statements(name) for t in s.tables}
    assert {(("currency_rates",), "write"), (("currency_rates_faker",), "read"), (("currency_rates",), "lookup")} <= roles


def test_star_schema_generators():
    fakers = [s for s in _statements("joins__05_star_schema.sql") if s.defines.endswith("_faker")]
    assert [(s.defines, [t.parts for t in s.tables]) for s in fakers] == [
        ("train_activities_faker", [["train_activities"]]),
        ("passengers_faker", [["passengers"]]),
        ("stations_faker", [["stations"]]),
        ("booking_channels_faker", [["booking_channels"]]),
    ]


def test_plural_interval_in_watermark():
    stmt = _defining("aggregations-and-analytics__02_watermarks.sql", "doctor_sightings")
    assert stmt.kind == "create_table"
    # WATERMARK FOR sighting_time AS sighting_time - INTERVAL '15' SECONDS
    assert [c.parts for c in stmt.columns] == [["sighting_time"], ["sighting_time"]]


def test_plural_interval_is_not_a_column():
    """``HOP(..., INTERVAL '30' SECONDS, ...)`` used to read SECONDS as a column."""
    [_, query] = _statements("aggregations-and-analytics__10_hopping_time_windows.sql")
    columns = {".".join(c.parts).upper() for c in query.columns}
    assert "SECONDS" not in columns
    assert "TRANSACTION_TIME" in columns


def test_timestampadd_computed_column():
    stmt = _defining("joins__02_interval_joins.sql", "orders")
    assert {f.name.upper() for f in stmt.functions} >= {"TIMESTAMPADD", "CAST", "FLOOR", "RAND"}


def test_similar_to_in_insert():
    [*_, insert] = _statements("foundations__02_insert_into.sql")
    assert insert.kind == "insert"
    assert [(t.parts, t.role) for t in insert.tables] == [(["client_errors"], "write"), (["server_logs"], "read")]
    assert ["status_code"] in [c.parts for c in insert.columns]
