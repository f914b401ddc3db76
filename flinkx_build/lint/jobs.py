"""What a rule pass reads, as data: so it can be sent to another process (no sqlfluff here).

The pass itself is `rule_pass.py`; `rule_worker.py` names it for a parser process.
"""
from __future__ import annotations

from dataclasses import dataclass

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

