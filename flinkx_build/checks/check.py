"""What a semantic check is: one object with its codes, their human names, where they are
documented and whether Flink's planner finds the same problems.

Severity and title of each code stay in `errors.CODES` (core: every layer reads them); a check
names its codes and gives each the human name docs/checks.md uses. `checks/__init__.py` holds
the registry of every check, and tests/checks/test_registry.py keeps errors.CODES,
docs/checks.md and docs/error-codes.md in step with it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flinkx_build.errors import CODES

if TYPE_CHECKING:
    from flinkx_build.errors import Diagnostic
    from flinkx_build.resolve.analysed import AnalysedTask
    from flinkx_build.workspace_model import Workspace

TaskCheck = Callable[["Workspace", "AnalysedTask"], "list[Diagnostic]"]


@dataclass(frozen=True)
class CheckCode:
    code: str
    name: str  # the human name, as docs/checks.md writes it: `unknown-column`

    @property
    def severity(self) -> str:
        return CODES[self.code][0]

    @property
    def title(self) -> str:
        return CODES[self.code][1]


@dataclass(frozen=True)
class Check:
    name: str  # what it checks, in words
    codes: tuple[CheckCode, ...]
    run: TaskCheck | None  # one task's findings; None: found across tasks (`checks/workspace.py`)
    page: str = "checks.md"  # the docs page with a `## FXnnn` section per code
    # Flink's planner, as `flinkx validate` runs it, finds the same problems, so validate goes on
    # to ask it; False: the planner never sees them (a stand-in connector takes any option) or
    # every command that plans stops on them (statements that load code)
    flink_finds_it: bool = True

    @property
    def code_names(self) -> tuple[str, ...]:
        return tuple(c.code for c in self.codes)
