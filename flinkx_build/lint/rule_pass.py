"""The sqlfluff half of lint: the FX rules over every statement of one task's text.

A `RuleJob` holds everything the pass reads (text, path, variables, rules and
the lint settings: `lint/jobs.py`), so it runs as well in a worker process
(`frontend/worker.py`, `lint/parallel.py`) as here; each statement's tree is read into the facts the
resolver works on, so lint and build share one parse. This module imports
sqlfluff: `lint/run.py` imports it only when a pass is not in the rule cache.
"""
from __future__ import annotations

from functools import lru_cache

from sqlfluff.core import Linter
from sqlfluff.core.errors import SQLLintError

from flinkx_build.credentials import mask_in_context
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import DEFAULT_VERSION
from flinkx_build.flink_data import reserved_words
from flinkx_build.frontend.fluff import fluff_config
from flinkx_build.frontend.fluff import lint_statement
from flinkx_build.frontend.explained import explained_statements
from flinkx_build.frontend.parse import context_key
from flinkx_build.frontend.parse import parse_chunk
from flinkx_build.frontend.parse import statement_from_tree
from flinkx_build.frontend.splitter import Chunk
from flinkx_build.frontend.splitter import split_statements
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.lint.jobs import SQL_RULES
from flinkx_build.lint.jobs import Edit
from flinkx_build.lint.jobs import RuleJob


@lru_cache(maxsize=32)
def rules_linter(context: tuple[tuple[str, str], ...], rules: tuple[str, ...], dataphin_version: str, include_warnings: bool,
                 flink_version: str = DEFAULT_VERSION) -> Linter:
    # sqlfluff reads a bare 3.10 as the number 3.1: pass the version as text it cannot coerce
    rule_configs = {
        "FX01": {"include_warnings": include_warnings, "flink_version": f"v{flink_version}"},
        "FX03": {"dataphin_version": f"v{dataphin_version}"},
    }
    config = fluff_config(context, extra=(("core", {"rules": ",".join(rules)}), ("rules", rule_configs)))
    return Linter(config=config)


def warm_up() -> None:
    """Import sqlfluff, build the dialect and load the rules: what a worker does before its first job."""
    lint_statement(rules_linter((), SQL_RULES, "3.7", False), "SELECT 1\n", "warm.sql")


def run_rule_pass(job: RuleJob) -> tuple[list[Diagnostic], list[ParsedStatement], list[Edit]]:
    """(findings, the parse of every statement, the fix edits when `job.fix`)."""
    linter = rules_linter(context_key(job.context), job.rules, job.dataphin_version, job.reserved_word_warnings, job.flink_version)
    diags: list[Diagnostic] = []
    parsed: list[ParsedStatement] = []
    edits: list[Edit] = []
    for index, chunk in enumerate(split_statements(job.text)):
        if chunk.kind != "statement":
            parsed.append(parse_chunk(chunk, index, job.context).statement)
            continue
        explained = explained_statements(chunk)
        if explained is not None:
            # the build's reading of an EXPLAIN (frontend/explained.py), and the rules on what it explains
            parsed.append(parse_chunk(chunk, index, job.context).statement)
            for inner in explained:
                linted = lint_statement(linter, inner.text, job.display_path, fix=job.fix)
                diags.extend(_rule_findings(job, inner, linted.violations))
                edits.extend(_fix_edits(job, inner, linted))
            continue
        linted = lint_statement(linter, chunk.text, job.display_path, fix=job.fix)
        problems = [v for v in linted.violations if not isinstance(v, SQLLintError)]
        parsed.append(statement_from_tree(linted.tree, problems, chunk, index))
        diags.extend(_rule_findings(job, chunk, linted.violations))
        edits.extend(_fix_edits(job, chunk, linted))
    return diags, parsed, edits


def _fix_edits(job: RuleJob, chunk: Chunk, linted) -> list[Edit]:  # noqa: ANN001 - sqlfluff's LintedFile
    if job.fix and linted.templated_file is not None and linted.tree is not None:
        # a statement sqlfluff could not lex (an unclosed bracket) has no tree to fix: its
        # FX120 stands, and fix_string() would assert (found by the fuzzer)
        fixed, _ = linted.fix_string()
        if fixed != chunk.text:
            return [(chunk.offset, chunk.offset + len(chunk.text), fixed)]
    return []


def _rule_findings(job: RuleJob, chunk: Chunk, violations: list) -> list[Diagnostic]:
    """The FX rules' findings of one statement, at their places in the file."""
    diags: list[Diagnostic] = []
    for violation in violations:
        if isinstance(violation, SQLLintError):
            line, col = chunk.position(violation.line_no, violation.line_pos)
            diags.append(Diagnostic(job.display_path, line, col, violation.rule_code(), mask_in_context(violation.desc(), chunk.text),
                                    severity=_severity(violation, job.severities, job.flink_version), fixable=bool(violation.fixes)))
    return diags


def _severity(violation: SQLLintError, severities: dict[str, str], flink_version: str) -> str:
    if violation.rule_code() in severities:
        return severities[violation.rule_code()]
    if violation.rule_code() == "FX01":
        # words Flink documents as reserved but accepts unquoted are warnings (reserved_word_warnings)
        word = violation.segment.raw.strip("`") if violation.segment is not None else ""
        if reserved_words(flink_version).get(word.upper()) == "warning":
            return "warning"
    return "warning" if violation.warning else "error"
