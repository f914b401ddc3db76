"""The fuzzer's oracle: what every command must do whatever the workspace holds.

- exit 0, 1 or 2, never "internal error" or a traceback;
- every line a human format prints is a finding `path:line:col: FXnnn message`
  or a `flinkx:` summary (documents on stdout aside: graph, explain, impact);
- with --format json or sarif, stdout parses as that format (issue 33's contract);
- each run ends within `harness.SECONDS_PER_RUN`;
- nothing is written in the workspace outside its build and cache folders, nor
  outside the workspace.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.robustness.harness import FINDING
from tests.robustness.harness import Run
from tests.robustness.harness import problems

OWN_FOLDERS = ("build", ".flinkx-cache", ".git")  # what flinkx may write (the build and cache folders; git's own)
DOCUMENTS = ("graph", "explain", "impact", "lineage")  # print a document on stdout in their default format


def machine_format(args: tuple[str, ...]) -> str:
    for i, arg in enumerate(args):
        if arg == "--format" and i + 1 < len(args):
            return args[i + 1]
    return ""


def run_problems(outcome: Run) -> list[str]:
    """Everything wrong with one run of the CLI (empty when it behaved)."""
    fmt = machine_format(outcome.args)
    document = outcome.args[0] in DOCUMENTS or "--diff" in outcome.args
    if fmt not in ("json", "sarif") and not document:
        return problems(outcome)
    # the human checks, on stderr only: stdout is the document
    found = problems(Run(outcome.args, outcome.exit_code, "", outcome.stderr, outcome.seconds))
    if "Traceback" in outcome.stdout:
        found.append(f"flinkx {' '.join(outcome.args)}: traceback on stdout")
    if fmt not in ("json", "sarif"):
        return found
    said = f"flinkx {' '.join(outcome.args)}: "
    if "Traceback" in outcome.stdout or "internal error" in outcome.stdout:
        found.append(said + "internal error on stdout: " + outcome.stdout[-400:])
    try:
        parsed = json.loads(outcome.stdout)
    except ValueError as exc:
        found.append(said + f"stdout is not {fmt}: {exc}: {outcome.stdout[:300]!r}")
    else:
        if fmt == "sarif" and not (isinstance(parsed, dict) and parsed.get("version") == "2.1.0"):
            found.append(said + f"stdout is JSON but not a SARIF log: {outcome.stdout[:300]!r}")
    return found


def diagnostic_problems(what: str, diags: list) -> list[str]:
    """The language server's diagnostics: each must format as one finding line."""
    found = []
    for d in diags:
        line = d.format()
        if "\n" in line or not FINDING.match(line):
            found.append(f"{what}: not a finding line: {line[:200]!r}")
    return found


def tree_state(root: Path, skip: tuple[str, ...] = OWN_FOLDERS) -> dict[str, tuple]:
    """Every path below `root` (links not followed) with what it is and its content's identity."""
    state: dict[str, tuple] = {}
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root)
        if rel_folder == ".":
            dirs[:] = [d for d in dirs if d not in skip]
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            state[os.path.normpath(os.path.join(rel_folder, name))] = (info.st_mode, info.st_size, info.st_mtime_ns)
    return state


def written_problems(before: dict[str, tuple], after: dict[str, tuple], where: str) -> list[str]:
    changed = sorted(set(before) ^ set(after) | {p for p in before.keys() & after.keys() if before[p] != after[p]})
    return [f"wrote {where}: {p}" for p in changed[:5]]

