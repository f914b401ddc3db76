"""frontend/fluff.py: the statement calls give sqlfluff's own trees and findings, faster.

Each comparison runs sqlfluff's documented entry points (`Linter.parse_string`,
`Linter.lint_string`) with sqlfluff's own parse contexts (a new hint cache per
parse) against flinkx's calls with the shared hint cache, statement by statement,
over the cookbook corpus, the example workspace and Dataphin forms.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlfluff.core import Linter

from flinkx_build.frontend.fluff import fluff_config
from flinkx_build.frontend.fluff import lint_statement
from flinkx_build.frontend.fluff import parse_statement
from flinkx_build.frontend.fluff import share_hint_cache
from flinkx_build.frontend.splitter import split_statements
from flinkx_build.lint.jobs import SQL_RULES
from flinkx_build.lint.rule_pass import rules_linter
from tests.conftest import COOKBOOK as CORPUS

ROOT = Path(__file__).resolve().parents[2]
DATAPHIN = [
    "SET ods.orders.watermark = WATERMARK FOR ts AS withOffset(ts, 1000)",
    "INSERT INTO dws.t SELECT dim:mask(name), `count` FROM ${proj}.orders /*+ OPTIONS('a'='b') */",
    "SELECT order FROM t",  # FX01: a reserved word
    "INSERT INTO t SELECT * FROM a JOIN b WITH (index = 'f2') FOR SYSTEM_TIME AS OF a.p ON a.k = b.k",
    "SELECT FROM WHERE",  # does not parse
]


def _statements(corpus: bool = True) -> list[str]:
    files = (sorted(CORPUS.glob("*.sql")) if corpus else []) + sorted((ROOT / "example-workspace").rglob("*.sql"))
    texts = [c.text for f in files for c in split_statements(f.read_text(encoding="utf-8")) if c.kind == "statement"]
    return texts + DATAPHIN


@contextmanager
def _sqlfluffs_own_contexts() -> Iterator[None]:
    share_hint_cache(False)
    try:
        yield
    finally:
        share_hint_cache(True)


def _shape(parsed) -> str:
    variant = parsed.root_variant()
    tree = variant.tree.stringify() if variant is not None and variant.tree is not None else None
    return f"{tree}\n{[(type(v).__name__, v.line_no, v.line_pos, v.desc()) for v in parsed.violations]}"


def test_the_statements_cover_the_corpus():
    assert len(_statements()) > len(_statements(corpus=False)) + 100


def test_parse_statement_gives_sqlfluffs_tree_for_every_statement():
    linter = Linter(config=fluff_config((("proj", "ods"),)))
    statements = _statements()
    ours = [_shape(parse_statement(linter, text, "t.sql")) for text in statements]
    with _sqlfluffs_own_contexts():
        theirs = [_shape(linter.parse_string(text, fname="t.sql")) for text in statements]
    differ = [text for text, a, b in zip(statements, ours, theirs) if a != b]
    assert not differ, differ[:3]


def test_lint_statement_gives_sqlfluffs_findings_and_fixes():
    linter = rules_linter((("proj", "ods"),), SQL_RULES, "3.7", True)

    def findings(linted) -> list[tuple[str, int, int, str]]:
        return [(v.rule_code(), v.line_no, v.line_pos, v.desc()) for v in linted.violations]

    statements = _statements(corpus=False)  # (the rules read trees the test above compares)
    ours = [(findings(f := lint_statement(linter, text, "t.sql", fix=True)), f.fix_string()[0]) for text in statements]
    with _sqlfluffs_own_contexts():
        theirs = [(findings(f := linter.lint_string(text, fname="t.sql", fix=True)), f.fix_string()[0]) for text in statements]
    assert ours == theirs
    assert any(code == "FX01" for found, _ in ours for code, *_ in found)  # the rules did run


def test_a_sqlfluff_comment_in_a_task_is_only_a_comment():
    # flinkx.yaml configures lint and the dialect is dataphin: sqlfluff's `lint_string` would
    # parse this SET as ansi (unparsable, and no FX rule finding)
    directive = "-- sqlfluff:dialect:ansi"
    linter = rules_linter((), SQL_RULES, "3.7", False)
    linted = lint_statement(linter, f"{directive}\nSET t.watermark = WATERMARK FOR ts AS withOffset(ts, 1000)", "t.sql")
    assert linted.tree is not None and "unparsable" not in linted.tree.descendant_type_set
    assert {"FX01", "FX03"} <= {v.rule_code() for v in linted.violations}  # `watermark` unquoted, its value too
    assert linter.config.get("dialect") == "dataphin"


def test_configurations_of_other_variable_contexts_share_one_expanded_dialect() -> None:
    # sqlfluff expands a dialect for each configuration, and flinkx makes one per project's
    # variables: a cold lint of 400 small projects expanded it 800 times (`dialect._expanded_once`)
    ods, dim = fluff_config((("proj", "ods"),)), fluff_config((("proj", "dim"),))
    assert ods.get("dialect_obj") is dim.get("dialect_obj")
    assert ods.get("dialect_obj").expanded
    # each still renders its own values, and parses as sqlfluff's own entry point does
    sql = "INSERT INTO dws.t SELECT a FROM ${proj}.orders\n"
    for config, rendered in ((ods, "ods.orders"), (dim, "dim.orders"), (ods, "ods.orders")):
        linter = Linter(config=config)
        ours, theirs = parse_statement(linter, sql, "t.sql"), linter.parse_string(sql, "t.sql")
        assert rendered in ours.tree.raw and ours.tree.stringify() == theirs.tree.stringify()
        assert "unparsable" not in ours.tree.stringify()
