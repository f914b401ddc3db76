"""A task's rule pass goes into the rule cache and the parse cache from one encoding of its parse
(`lint/parallel.py`, `lint/run.py`): encoding a parse took as long as the rest of storing it."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flinkx_build.frontend.cache import ParseCache
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.lint import parallel
from flinkx_build.lint.result_cache import RuleCache
from flinkx_build.lint.result_cache import RulePass
from flinkx_build.lint.run import lint_task
from flinkx_build.lint.select import EVERY_CODE
from flinkx_build.lint.task_jobs import task_rule_cache_key
from flinkx_build.pipeline import Session
from tests.conftest import EXAMPLE


@pytest.fixture
def session(tmp_path: Path) -> Session:
    shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    return Session.open(tmp_path / "ws", use_cache=True)


@pytest.fixture
def encodings(monkeypatch: pytest.MonkeyPatch) -> list[ParsedStatement]:
    encoded: list[ParsedStatement] = []
    to_json = ParsedStatement.to_json
    monkeypatch.setattr(ParsedStatement, "to_json", lambda self: encoded.append(self) or to_json(self))
    return encoded


def _stored(session: Session, key: str, task) -> tuple[RulePass | None, list[ParsedStatement] | None]:
    parse_key = ParseCache.key(task.text, session.context_for(task))
    return RuleCache(session.cache.root).get(key), ParseCache(session.cache.root).get(parse_key)


def test_a_workers_rule_pass_encodes_each_statement_once_for_both_caches_and_its_answer(session, encodings) -> None:
    task = max(session.workspace.all_tasks(), key=lambda t: t.text.count(";"))
    key = task_rule_cache_key(session, task, EVERY_CODE)
    answer = parallel._lint_one(session, task, EVERY_CODE, key)
    statements = RulePass.from_json(answer).parsed
    assert len(statements) > 2 and len(encodings) == len(statements)
    assert _stored(session, key, task) == (RulePass.from_json(answer), statements)


def test_a_serial_rule_pass_encodes_each_statement_once_for_both_caches(session, encodings) -> None:
    task = max(session.workspace.all_tasks(), key=lambda t: t.text.count(";"))
    lint_task(session, task)
    key = task_rule_cache_key(session, task, EVERY_CODE)
    stored, parsed = _stored(session, key, task)
    assert stored is not None and parsed == stored.parsed
    assert len(parsed) > 2 and len(encodings) == len(parsed)
