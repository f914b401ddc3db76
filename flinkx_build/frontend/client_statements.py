"""Flink statements a task cannot hold: the SQL client's and the catalogs' commands.

Flink's parser takes `ADD JAR '...'`, `SHOW CREATE TABLE t`, `RESET 'k'`, `CALL p()` and the
like (its SQL client runs them), but none of them is part of a job, and a task is one job:
its SETs, the DDL flinkx writes, INSERTs, SELECTs and statement sets. flinkx's grammar has no
rule for them, so they used to be FX120 "cannot parse", which tells the author nothing. A
statement that does not parse and begins with one of these keyword sequences is named instead,
with what to do. The keyword sequences are Flink 1.20's (its parser accepts each:
tests/frontend/test_client_statements.py). `DESCRIBE`, `SHOW TABLES` and `USE` parse in
flinkx's grammar and are not named here.
"""
from __future__ import annotations

from dataclasses import dataclass

from flinkx_build.frontend.splitter import strip_comments

_ELSEWHERE = "run it in Flink's SQL client: a task holds one job's SET, INSERT and SELECT statements"
_JARS = "name the jar under deploy.jars in flinkx.yaml"

# the leading keywords, longest first where one starts another
_STATEMENTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("COMPILE", "AND", "EXECUTE", "PLAN"), _ELSEWHERE),
    (("COMPILE", "PLAN"), _ELSEWHERE),
    (("EXECUTE", "PLAN"), _ELSEWHERE),
    (("SHOW", "CREATE"), _ELSEWHERE),
    (("DESC",), _ELSEWHERE),
    (("RESET",), _ELSEWHERE),
    (("ADD", "JAR"), _JARS),
    (("REMOVE", "JAR"), _JARS),
    (("LOAD", "MODULE"), _ELSEWHERE),
    (("UNLOAD", "MODULE"), _ELSEWHERE),
    (("USE", "MODULES"), _ELSEWHERE),
    (("ANALYZE", "TABLE"), _ELSEWHERE),
    (("CALL",), _ELSEWHERE),
    (("STOP", "JOB"), _ELSEWHERE),
)


@dataclass(frozen=True)
class ClientStatement:
    name: str  # its leading keywords, as Flink's documentation writes them
    hint: str

    @property
    def message(self) -> str:
        return f"'{self.name}' is a SQL client statement, not part of a job"


def client_statement(text: str) -> ClientStatement | None:
    """The client statement `text` (one statement, comments allowed) begins with, or None."""
    words = strip_comments(text).upper().replace("(", " ").split()[:4]
    for keywords, hint in _STATEMENTS:
        if tuple(words[: len(keywords)]) == keywords:
            return ClientStatement(" ".join(keywords), hint)
    return None
