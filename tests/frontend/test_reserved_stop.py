"""Check 13: a reserved word that stops the parse is FX01 at the word, and `fix` quotes it.

The words and positions here are Flink's own verdicts too: test_flink_grammar.py's
RESERVED_STOPS checks that Flink 1.20 rejects each statement at the same word and
accepts it once the word is backtick-quoted.
"""
from __future__ import annotations

import pytest
from sqlfluff.core import FluffConfig
from sqlfluff.core import Linter

from flinkx_build.frontend.parse import parse_task_text
from flinkx_build.frontend.reserved_stop import syntax_code
from tests.frontend.test_flink_grammar import RESERVED_STOPS


def problem_of(sql: str, **context):
    [chunk] = parse_task_text(sql, context)
    return chunk.statement.syntax


@pytest.mark.parametrize("sql, word, line, col", [pytest.param(*v, id=k) for k, v in RESERVED_STOPS.items()])
def test_the_build_reports_fx01_at_the_word(sql, word, line, col):
    problem = problem_of(sql)
    assert problem is not None and (problem.pos.line, problem.pos.col) == (line, col)
    assert syntax_code(problem.message) == "FX01"
    assert f"(`{word}`)" in problem.message


def test_position_is_in_task_file_coordinates():
    text = "SELECT 1 FROM t;\n\nINSERT INTO s\nSELECT id, partition AS p FROM t;"
    problem = parse_task_text(text, {})[1].statement.syntax
    assert (problem.pos.line, problem.pos.col) == (4, 12)
    assert syntax_code(problem.message) == "FX01"


def test_first_of_several_words_is_reported():
    problem = problem_of("SELECT partition, timestamp FROM t")
    assert (problem.pos.line, problem.pos.col) == (1, 8) and "`partition`" in problem.message


@pytest.mark.parametrize("sql", ["SELECT a b c FROM", "SELECT FROM WHERE", "CREATE TABLE t (a INT"])
def test_other_syntax_errors_stay_fx120(sql):
    problem = problem_of(sql)
    assert problem is not None and syntax_code(problem.message) == "FX120"


def test_a_word_from_a_variable_is_not_the_authors():
    problem = problem_of("SELECT ${col} AS c FROM t", col="partition")
    assert problem is not None and syntax_code(problem.message) == "FX120"


# --- the sqlfluff rule: lint and fix without flinkx's pipeline ---------------------------


def lint(sql: str, fix: bool = False):
    config = FluffConfig(overrides={"dialect": "dataphin", "rules": "FX01"})
    return Linter(config=config).lint_string(sql, fix=fix)


def test_rule_reports_each_word_and_fixes_them():
    linted = lint("SELECT partition AS p, t.user FROM t WHERE timestamp > 1", fix=True)
    found = [(v.line_no, v.line_pos) for v in linted.violations if v.rule_code() == "FX01"]
    assert found == [(1, 8), (1, 26), (1, 44)]
    assert linted.fix_string()[0] == "SELECT `partition` AS p, t.`user` FROM t WHERE `timestamp` > 1"


def test_rule_finds_words_when_the_whole_statement_is_unparsable():
    linted = lint("CREATE TABLE t (user STRING, `b` INT) WITH ('connector' = 'datagen')", fix=True)
    assert [(v.line_no, v.line_pos) for v in linted.violations if v.rule_code() == "FX01"] == [(1, 17)]
    assert linted.fix_string()[0].startswith("CREATE TABLE t (`user` STRING")


def test_rule_is_silent_on_an_unrelated_parse_error():
    assert [v for v in lint("SELECT a b c FROM").violations if v.rule_code() == "FX01"] == []


def test_bare_offset_as_named_argument_is_fx01():
    # Flink rejects `OFFSET => ...` (test_flink_grammar checks that); sqlfluff parses the
    # word as a name, so FX01 reports it like any reserved identifier.
    sql = "SELECT * FROM TABLE(TUMBLE(DATA => TABLE Bid, TIMECOL => DESCRIPTOR(ts), SIZE => INTERVAL '1' MINUTES, OFFSET => INTERVAL '1' MINUTES))"
    linted = lint(sql, fix=True)
    assert [v.line_pos for v in linted.violations if v.rule_code() == "FX01"] == [sql.index("OFFSET") + 1]
    assert "`OFFSET` =>" in linted.fix_string()[0]


# --- end to end: lint, fix and build on a workspace --------------------------------------

def _table(name: str, connector: str, columns: dict[str, str]) -> str:
    lines = "".join(f"  - {{name: {c}, type: {t}}}\n" for c, t in columns.items())
    return f"name: {name}\ntype: {connector}\nkind: stream\ncolumns:\n{lines}with: {{connector: {connector}}}\n"


TABLES = {
    "projects/p/project.yaml": "name: p\n",
    "projects/p/tables/src.yaml": _table("src", "datagen", {"id": "BIGINT", "partition": "INT"}),
    "projects/p/tables/sink.yaml": _table("sink", "print", {"id": "BIGINT", "p": "INT"}),
}


def test_lint_build_and_fix(make_workspace, cli):
    task = "INSERT INTO sink\nSELECT id, partition AS p FROM src;\n"
    root = make_workspace({**TABLES, "projects/p/tasks/t.sql": task})
    linted = cli("lint", cwd=root)
    assert linted.exit_code == 1
    expected = ("projects/p/tasks/t.sql:2:12: FX01 reserved word 'partition' used as an identifier must be backtick-quoted "
                "(`partition`): Flink rejects it unquoted (`flinkx fix` quotes it)")
    assert [line for line in linted.lines if ": FX" in line] == [expected]
    built = cli("build", cwd=root)
    assert built.exit_code == 1
    assert [line for line in built.lines if ": FX" in line] == [expected]  # the same words as lint (issue 44)
    assert not any("FX120" in line for line in built.lines + linted.lines)
    cli("fix", cwd=root)
    assert (root / "projects/p/tasks/t.sql").read_text() == "INSERT INTO sink\nSELECT id, `partition` AS p FROM src;\n"
    assert cli("build", cwd=root).exit_code == 0


def test_search_stays_cheap_on_an_unrelated_error(monkeypatch):
    from flinkx_build.frontend import reserved_stop

    calls = []
    real = reserved_stop._error_after_quoting
    monkeypatch.setattr(reserved_stop, "_error_after_quoting", lambda text, starts: calls.append(starts) or real(text, starts))
    # many reserved words used as keywords (DATE literals, TIMESTAMP types), one unrelated error
    items = ",\n".join(f"  CAST(c{i} AS TIMESTAMP(3)) AS t{i}, DATE '2020-01-01' AS d{i}" for i in range(20))
    problem = problem_of(f"SELECT\n{items}\nFROM t WHERE a = = 1")
    assert syntax_code(problem.message) == "FX120" and (problem.pos.line, problem.pos.col) == (22, 16)
    assert len(calls) <= 2  # only the words in and just before the unparsable section are tried
    calls.clear()
    problem_of(f"SELECT\n{items}\nFROM t WHERE a = = 1")  # lint asks again: answered from the first search
    assert calls == []
