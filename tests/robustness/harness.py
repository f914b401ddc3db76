"""Run flinkx's commands on a broken workspace and check what a user would see.

Shared by the bad-input corpus and the property-based test: every command
must end with exit 0, 1 or 2 (never "internal error"), within a few seconds,
and every line it prints must be a finding `path:line:col: FXnnn message`
or a `flinkx: ...` summary.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path

FINDING = re.compile(r"^[^:\n]+:\d+:\d+: FX\w+ ")
SUMMARY = re.compile(r"^flinkx: ")
SECONDS_PER_RUN = 8.0  # generous for a loaded 2-core CI machine; a hang is minutes


@dataclass
class Run:
    args: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    seconds: float

    @property
    def lines(self) -> list[str]:
        return [line for line in (self.stdout + "\n" + self.stderr).splitlines() if line.strip()]


def run(cli, ws: Path, *args: str) -> Run:
    started = time.perf_counter()
    result = cli(*args, cwd=ws)
    return Run(args, result.exit_code, result.stdout, result.stderr, time.perf_counter() - started)


def problems(outcome: Run) -> list[str]:
    """Everything wrong with one run, as readable strings (empty when it behaved)."""
    found = []
    text = outcome.stdout + outcome.stderr
    if outcome.exit_code not in (0, 1, 2):
        found.append(f"exit code {outcome.exit_code}")
    if "internal error" in text or "Traceback" in text:
        found.append("internal error: " + text[-400:])
    if outcome.seconds > SECONDS_PER_RUN:
        found.append(f"took {outcome.seconds:.1f} s")
    # graph and explain print their product on stdout (a graph even when there are findings)
    product = outcome.args[0] in ("graph", "explain") or outcome.exit_code == 0
    checked = outcome.stderr.splitlines() + ([] if product else outcome.stdout.splitlines())
    for line in checked:
        if line.strip() and not (FINDING.match(line) or SUMMARY.match(line)):
            found.append(f"not a finding line: {line[:200]!r}")
    return [f"flinkx {' '.join(outcome.args)}: {p}" for p in found]


def finding_at(outcome: Run, code: str, line: int, col: int) -> bool:
    pattern = re.compile(rf"^[^:\n]+:{line}:{col}: {code} ")
    return any(pattern.match(text) for text in outcome.lines)


def every_command(cli, ws: Path, explain: str, target: str | None) -> list[Run]:
    """build, lint (whole workspace and the changed file alone, as the pre-commit hook runs it), explain, graph."""
    runs = [run(cli, ws, "build", "."), run(cli, ws, "lint", ".")]
    if target is not None:
        runs.append(run(cli, ws, "lint", ".", target))
    runs.append(run(cli, ws, "explain", ".", explain))
    runs.append(run(cli, ws, "graph", "."))
    return runs
