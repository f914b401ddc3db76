"""A task's rule pass as a job (`jobs.RuleJob`) and the key its result is cached under.

Shared by the serial lint (`run.py`), the forked workers (`parallel.py`) and the early rule passes of
`flinkx lint FILE` (`early.py`), so each makes the same job and the same key for the same task.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from flinkx_build.lint.jobs import SQL_RULES
from flinkx_build.lint.jobs import RuleJob
from flinkx_build.lint.result_cache import RuleCache
from flinkx_build.lint.select import CodeFilter
from flinkx_build.workspace_model import LintConfig
from flinkx_build.workspace_model import Task
from flinkx_build.workspace_model import Workspace

if TYPE_CHECKING:
    from flinkx_build.pipeline import Session


def enabled_sql_rules(lint: LintConfig) -> tuple[str, ...]:
    return tuple(code for code in SQL_RULES if lint.rules.get(code, True))


def _rules_to_run(lint_cfg: LintConfig, codes: CodeFilter) -> tuple[tuple[str, ...], bool]:
    """(rules, whether any was asked for): sqlfluff runs every rule when given none, so FX03 stands in."""
    wanted = tuple(code for code in enabled_sql_rules(lint_cfg) if codes.keeps(code))
    return wanted or ("FX03",), bool(wanted)


def task_rule_cache_key(session: Session, task: Task, codes: CodeFilter) -> str:
    return rule_cache_key(rule_job(session, task, False, codes), session.workspace.config.lint)


def rule_cache_key(job: RuleJob, lint_cfg: LintConfig) -> str:
    return RuleCache.key(job.text, job.context, job.display_path, job.rules, f"{job.dataphin_version}/{job.flink_version}", lint_cfg)


def rule_job(session: Session, task: Task, fix: bool, codes: CodeFilter) -> RuleJob:
    return job_for(session.workspace, task.text, task.display_path, session.context_for(task), fix, codes)


def job_for(ws: Workspace, text: str, display_path: str, context: dict[str, str], fix: bool, codes: CodeFilter) -> RuleJob:
    lint_cfg = ws.config.lint
    rules, wanted = _rules_to_run(lint_cfg, codes)
    return RuleJob(text, display_path, context, rules, ws.config.dataphin_version, lint_cfg.reserved_word_warnings,
                   dict(lint_cfg.severities), fix=fix and wanted, flink_version=ws.config.flink_version)  # the stand-in rule only parses: never apply its fixes
