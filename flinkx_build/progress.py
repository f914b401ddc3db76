"""What a long stage reports its progress to: a phase with a count, then one advance per task.

The stages (`workspace_build/compile_all.py`, `lint/run.py`) take a `Progress` from their caller, and the
command line passes its terminal bar (`commands/progress.py`); the stages never decide whether a
terminal shows one, and they import nothing from the command line for it.
"""
from __future__ import annotations

from typing import Protocol


class Progress(Protocol):
    def phase(self, label: str, total: int) -> None: ...

    def advance(self, name: str) -> None: ...


class _NoProgress:
    def phase(self, label: str, total: int) -> None:
        pass

    def advance(self, name: str) -> None:
        pass


NO_PROGRESS: Progress = _NoProgress()
