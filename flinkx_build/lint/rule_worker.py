"""The rule pass as a parser process runs it, named from a module without sqlfluff.

A parent sends `run_job` and `warm_up_rules` to its parser process by name (`frontend/worker.py`
takes a warm-up and any job function from the stage that uses it), and imports sqlfluff only
if it runs a pass itself. `rule_pass.py` imports sqlfluff when loaded, so it is imported here
only when called.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flinkx_build.errors import Diagnostic
    from flinkx_build.frontend.statements import ParsedStatement
    from flinkx_build.lint.jobs import Edit
    from flinkx_build.lint.jobs import RuleJob


def run_job(job: RuleJob) -> tuple[list[Diagnostic], list[ParsedStatement], list[Edit]]:
    """`rule_pass.run_rule_pass`: what a parent sends its parser process."""
    from flinkx_build.lint.rule_pass import run_rule_pass

    return run_rule_pass(job)


def warm_up_rules() -> None:
    """The parser process's warm-up for lint: sqlfluff, the dialect and the FX rules loaded."""
    from flinkx_build.lint.rule_pass import warm_up

    warm_up()
