"""The Flink 1.20 constructs that `dataphin` adds to sqlfluff's `flink` grammar.

One small test per construct (see "Flink 1.20 syntax that `flink` lacks" in
`flinkx_build.frontend.dialect`): it parses, and the segment types that
`extract` and the flinkx_rules plugin read are where they expect them.
Every accepted form here was checked against Flink 1.20.5's own parser.
"""
from __future__ import annotations

import pytest
from sqlfluff.core import FluffConfig
from sqlfluff.core import Linter

from flinkx_build.frontend.dialect import PLURAL_INTERVAL_UNITS
from flinkx_build.frontend.parse import parse_task_text


def parse(sql: str):
    """(statement facts, sqlfluff tree) of one statement that must parse cleanly."""
    [chunk] = parse_task_text(sql, {})
    assert chunk.statement.syntax is None, chunk.statement.syntax
    return chunk.statement, chunk.tree


def types_of(tree, seg_type: str) -> list[str]:
    return [s.raw for s in tree.recursive_crawl(seg_type)]


def body_of(tree):
    statement = next(tree.recursive_crawl("statement"))
    return next(s for s in statement.segments if s.is_code)


# --- plural interval units -------------------------------------------------------


def test_plural_units_are_calcite_132s():
    # Flink 1.20 (Calcite 1.32) rejects QUARTERS, WEEKS and MILLISECONDS.
    assert PLURAL_INTERVAL_UNITS == ("YEARS", "MONTHS", "DAYS", "HOURS", "MINUTES", "SECONDS")


@pytest.mark.parametrize("unit", PLURAL_INTERVAL_UNITS)
def test_plural_interval_unit(unit):
    stmt, tree = parse(f"SELECT a FROM t WHERE ts > x - INTERVAL '2' {unit.lower()}")
    [interval] = list(tree.recursive_crawl("interval_expression"))
    assert types_of(interval, "date_part") == [unit.lower()]
    assert [c.parts for c in stmt.columns] == [["a"], ["ts"], ["x"]]


def test_plural_interval_in_watermark():
    stmt, tree = parse(
        "CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '15' SECONDS) "
        "WITH ('connector' = 'datagen')"
    )
    assert stmt.kind == "create_table" and stmt.defines == "t"
    assert types_of(tree, "date_part") == ["SECONDS"]


def test_plural_interval_with_precision_and_number():
    _, tree = parse("SELECT INTERVAL '1.5' SECONDS(3) AS a, INTERVAL 2 HOURS AS b FROM t")
    assert len(list(tree.recursive_crawl("interval_expression"))) == 2
    assert types_of(tree, "date_part") == ["SECONDS", "HOURS"]


def test_plural_interval_is_not_an_alias():
    """Before: ``INTERVAL '30'`` aliased ``SECONDS`` in a select list or a column in a call."""
    stmt, tree = parse("SELECT ts - INTERVAL '30' SECONDS, HOP(ts, INTERVAL '30' SECONDS) FROM t")
    assert list(tree.recursive_crawl("alias_expression")) == []
    assert types_of(tree, "date_part") == ["SECONDS", "SECONDS"]
    assert [c.parts for c in stmt.columns] == [["ts"], ["ts"]]


def test_plurals_flink_rejects_stay_errors():
    [chunk] = parse_task_text("SELECT a FROM t WHERE ts > x - INTERVAL '1' WEEKS", {})
    assert chunk.statement.syntax is not None


# --- SIMILAR TO ------------------------------------------------------------------


@pytest.mark.parametrize(
    "predicate",
    ["a SIMILAR TO '4[0-9][0-9]'", "a NOT SIMILAR TO '[2,3][0-9][0-9]'", "a similar to 'x!%' escape '!'"],
)
def test_similar_to(predicate):
    stmt, tree = parse(f"SELECT b FROM t WHERE {predicate} AND c = 1")
    keywords = [k.upper() for k in types_of(tree, "keyword")]
    assert ["SIMILAR", "TO"] == [k for k in keywords if k in ("SIMILAR", "TO")]
    assert [c.parts for c in stmt.columns] == [["b"], ["a"], ["c"]]


def test_similar_to_in_select_list():
    stmt, tree = parse("SELECT a SIMILAR TO 'x%' AS m FROM t")
    assert types_of(tree, "alias_expression") == ["AS m"]
    assert [c.parts for c in stmt.columns] == [["a"]]


# --- TIMESTAMPADD ----------------------------------------------------------------


def test_timestampadd_takes_a_unit():
    stmt, tree = parse(
        "CREATE TABLE orders (id INT, "
        "order_time AS TIMESTAMPADD(DAY, CAST(FLOOR(RAND()*(1-5+1)+5)*(-1) AS INT), CURRENT_TIMESTAMP)) "
        "WITH ('connector' = 'datagen')"
    )
    assert [f.name for f in stmt.functions] == ["TIMESTAMPADD", "CAST", "FLOOR", "RAND"]
    [function] = [f for f in tree.recursive_crawl("function") if f.raw.startswith("TIMESTAMPADD")]
    name = next(s for s in function.segments if s.is_type("function_name"))
    assert types_of(name, "function_name_identifier") == ["TIMESTAMPADD"]
    assert types_of(function, "date_part") == ["DAY"]
    assert stmt.columns == []  # DAY is a unit, not a column


def test_timestampadd_lowercase_in_query():
    stmt, _ = parse("SELECT timestampadd(minute, -5, ts) AS t5 FROM t")
    assert [f.name for f in stmt.functions] == ["timestampadd"]
    assert [c.parts for c in stmt.columns] == [["ts"]]


# --- CREATE TABLE without a column list ------------------------------------------


def test_create_table_with_like_no_columns():
    stmt, tree = parse(
        "CREATE TEMPORARY TABLE currency_rates_faker\n"
        "WITH (\n  'connector' = 'faker',\n  'rows-per-second' = '100'\n"
        ") LIKE db.currency_rates (EXCLUDING OPTIONS)"
    )
    body = body_of(tree)
    assert body.is_type("create_table_statement")
    refs = [s.raw for s in body.segments if s.is_type("table_reference")]
    assert refs == ["currency_rates_faker", "db.currency_rates"]  # defined name first
    code = [s for s in body.segments if s.is_code]
    with_at = next(i for i, s in enumerate(code) if s.raw.upper() == "WITH")
    assert code[with_at + 1].is_type("bracketed")  # what FX02 walks
    assert stmt.kind == "create_table" and stmt.defines == "currency_rates_faker"
    assert [(t.parts, t.role, t.has_alias_slot) for t in stmt.tables] == [(["db", "currency_rates"], "read", False)]


def test_create_table_partitioned_with_like_no_columns():
    stmt, _ = parse(
        "CREATE TABLE x PARTITIONED BY (dt) WITH ('connector' = 'filesystem') LIKE y (EXCLUDING OPTIONS)"
    )
    assert stmt.defines == "x" and [t.parts for t in stmt.tables] == [["y"]]


def test_create_table_with_only_options():
    stmt, _ = parse("CREATE TABLE x WITH ('connector' = 'datagen')")
    assert stmt.kind == "create_table" and stmt.defines == "x" and stmt.tables == []


def test_create_table_as_select_with_options():
    stmt, tree = parse("CREATE TABLE sink WITH ('connector' = 'blackhole') AS SELECT a, b FROM src")
    assert stmt.kind == "create_table" and stmt.defines == "sink"
    assert [(t.parts, t.role) for t in stmt.tables] == [(["src"], "read")]
    assert len(list(tree.recursive_crawl("select_statement"))) == 1


# --- LIKE options ----------------------------------------------------------------


def test_like_options_space_separated():
    stmt, tree = parse(
        "CREATE TABLE x (b INT) WITH ('connector' = 'datagen') "
        "LIKE y (EXCLUDING ALL INCLUDING GENERATED OVERWRITING WATERMARKS)"
    )
    assert stmt.defines == "x" and [t.parts for t in stmt.tables] == [["y"]]
    keywords = [k.upper() for k in types_of(tree, "keyword")]
    assert keywords[-6:] == ["EXCLUDING", "ALL", "INCLUDING", "GENERATED", "OVERWRITING", "WATERMARKS"]


def test_like_options_comma_form_still_parses():
    # Flink itself rejects the commas, but `flink` accepted them: nothing stops parsing.
    stmt, _ = parse("CREATE TABLE x (b INT) WITH ('connector' = 'datagen') LIKE y (EXCLUDING ALL, INCLUDING GENERATED)")
    assert stmt.defines == "x"


# --- the flinkx_rules plugin on the new forms -------------------------------------


def test_fx02_sees_options_of_create_table_without_columns():
    plugin = pytest.importorskip("flinkx_rules.plugin")  # installed, or rules/ on sys.path
    plugin.ensure_registered()
    linter = Linter(config=FluffConfig(configs={"core": {"dialect": "dataphin", "rules": "FX02"}}))
    sql = "CREATE TEMPORARY TABLE x WITH (connector = 'faker', 'rows-per-second' = 5) LIKE y (EXCLUDING OPTIONS);\n"
    result = linter.lint_string(sql, fix=True)
    codes = [v.rule_code() for v in result.get_violations()]
    assert codes == ["FX02", "FX02"]
    assert result.fix_string()[0] == (
        "CREATE TEMPORARY TABLE x WITH ('connector' = 'faker', 'rows-per-second' = '5') LIKE y (EXCLUDING OPTIONS);\n"
    )
