"""What a rule pass reads, as data: so it can be sent to another process (no sqlfluff here)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flinkx_build.errors import Diagnostic
    from flinkx_build.frontend.statements import ParsedStatement

SQL_RULES = ("FX01", "FX02", "FX03")
Edit = tuple[int, int, str]  # (start, end, replacement) in the task's text


@dataclass(frozen=True)
class RuleJob:
    text: str
    display_path: str
    context: dict[str, str]
    rules: tuple[str, ...]
    dataphin_version: str
    reserved_word_warnings: bool
    severities: dict[str, str]  # flinkx.yaml lint.severities
    fix: bool
    flink_version: str = "1.20"  # the workspace's target: FX01 judges words by its parser


def run_job(job: RuleJob) -> tuple[list[Diagnostic], list[ParsedStatement], list[Edit]]:
    """`rule_pass.run_rule_pass`, named from a module without sqlfluff (what a parent sends its parser process)."""
    from flinkx_build.lint.rule_pass import run_rule_pass

    return run_rule_pass(job)
