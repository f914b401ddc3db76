"""validate hands an EXPLAIN to Flink (issue 28 item 3): Flink plans what it explains and never runs a job."""
from __future__ import annotations

import pytest

from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.facts.verdict import verdicts
from tests.helpers import flink_available
from tests.helpers import open_flink

_REASON = flink_available()
pytestmark = [pytest.mark.flink, pytest.mark.skipif(_REASON is not None, reason=f"Flink validation unavailable: {_REASON}")]

DDL = ("CREATE TABLE src (id BIGINT) WITH ('connector' = 'datagen')",
       "CREATE TABLE snk (id BIGINT) WITH ('connector' = 'blackhole')")
EXPLAINS = ("EXPLAIN CHANGELOG_MODE INSERT INTO snk SELECT id FROM src",
            "EXPLAIN STATEMENT SET BEGIN INSERT INTO snk SELECT id FROM src; INSERT INTO snk SELECT id + 1 FROM src; END",
            "EXPLAIN PLAN FOR SELECT nope FROM src")


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    with open_flink() as flink:
        yield flink


def _script(*texts: str) -> ScriptToValidate:
    return ScriptToValidate("k", "k.sql", tuple(CompiledStatement(t, n, 1, "other") for n, t in enumerate(texts, 1)))


def test_an_explained_statement_is_planned(session):
    findings = session.validate(_script(*DDL, *EXPLAINS))
    assert [(f.line, f.col, f.message) for f in findings] == [(5, 25, "Column 'nope' not found in any table")]


def test_flink_answers_an_explain_with_a_plan_and_no_job():
    # Flink itself (no flinkx in between) executes an EXPLAIN as a plan, never as a job
    answers = verdicts("1.20", {f"e{i}": [*DDL, explain] for i, explain in enumerate(EXPLAINS[:2])}, "--execute")
    for answer in answers.values():
        assert answer.startswith("RESULT ") and "Sink(table=[default_catalog.default_database.snk]" in answer, answer
