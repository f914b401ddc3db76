"""The benchmark's tables in docs/performance.md: written by `scripts/bench.py --write-doc`, never by hand.

The page holds two marked blocks. `bench:tables` is replaced by the last run's
tables (one per workspace shape, with the sqlfluff anchors measured in the same
run, and the scaling table of the per-change jobs). `bench:history` is one
table with a row per shape per run: commit, machine load, and the figures the
targets are about, so the page states what was measured and not when.
"""
from __future__ import annotations

import platform
import re
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "performance.md"
SCALED_JOBS = ("warm build, nothing changed", "build after one task changed", "lint one file",
               "impact again, same change")
# what any build must do before it can say "nothing changed", timed beside the jobs (`bench.STAT_WALK`)
FLOOR_JOB = "floor: stat every input file, the files below projects/ (Python, no flinkx)"
AT_BEST_JOB = "nothing changed at best: the fewest's time plus the floor's growth"
PR_CHECK_JOB = "PR check: lint --changed-since HEAD, one task changed, no cache, with the planner"
MAX_SCALING = 1.5  # the per-change rows may grow this much from the fewest to the most projects
HISTORY_HEADER = ["commit", "workspace", "cold build / sqlfluff parse", "nothing changed (s)", "one task changed (s)",
                  "lint one file (s)", "impact again (s)", "cold lint / sqlfluff lint", "PR check (s)", "peak RSS (MB)",
                  "load average"]


def scaling_table(by_size: dict[int, list[Any]]) -> str:
    """Per-change jobs (rows) at each number of projects (columns), and the growth from the fewest to the most.

    Below them, the floor (`FLOOR_JOB`) and what it implies: "nothing changed" at the fewest projects
    plus only the floor's growth, the least a build that stats its inputs can take at each size.
    """
    sizes = sorted(by_size)
    seconds = {size: {row.job: row.flinkx.seconds for row in rows} for size, rows in by_size.items()}
    header = ["job", *(f"{size} projects (s)" for size in sizes), f"most / fewest (target <= {MAX_SCALING:g})", "met"]
    lines = ["Scaling of the per-change jobs (many small projects: copies of the example's four projects, about 3 tasks each)", "",
             "| " + " | ".join(header) + " |", "|---|" + "---:|" * (len(sizes) + 1) + "---|"]

    def line(job: str, cells: list[float], judged: bool = True) -> str:
        growth = cells[-1] / cells[0] if cells[0] else float("inf")
        verdict = "" if not judged else "yes" if growth <= MAX_SCALING else "NO"
        return "| " + " | ".join([job, *(f"{c:.2f}" for c in cells), f"{growth:.2f}", verdict]) + " |"

    for job in SCALED_JOBS:
        cells = [seconds[size].get(job) for size in sizes]
        if all(c is not None for c in cells):
            lines.append(line(job, cells))
    floor = [seconds[size].get(FLOOR_JOB) for size in sizes]
    unchanged = [seconds[size].get(SCALED_JOBS[0]) for size in sizes]
    if all(c is not None for c in floor + unchanged):
        lines.append(line(FLOOR_JOB, floor, judged=False))
        at_best = [unchanged[0] + f - floor[0] for f in floor]
        lines.append(line(AT_BEST_JOB, at_best))
    return "\n".join(lines)


def history_row(commit: str, title: str, rows: list[Any], load: str) -> str:
    """One line of the history table for one shape's rows (as `bench.bench` measured them)."""
    by_job = {row.job.split(" (")[0]: row for row in rows}

    def secs(job: str) -> str:
        row = by_job.get(job)
        # the PR check's figure counts only when it planned (without the planner its job says so after " (")
        return f"{row.flinkx.seconds:.2f}" if row and (job != PR_CHECK_JOB or row.job == job) else ""

    def ratio(job: str) -> str:
        row = by_job.get(job)
        return f"{row.flinkx.seconds / row.anchor.seconds:.2f}" if row and row.anchor else ""

    peak = max(row.flinkx.peak_mb for row in rows)
    cells = [commit, title, ratio("cold build"), secs("warm build, nothing changed"), secs("build after one task changed"),
             secs("lint one file"), secs("impact again, same change"), ratio("lint whole workspace, cache cold"),
             secs(PR_CHECK_JOB), f"{peak:.0f}", load]
    return "| " + " | ".join(cells) + " |"


def commit() -> str:
    try:
        found = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True)
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "flinkx_build", "rules"], cwd=REPO,
                               capture_output=True, text=True, check=True).stdout.strip()
        return found.stdout.strip() + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine_facts(cores: int, load_before: tuple[float, ...], load_after: tuple[float, ...]) -> str:
    try:
        from importlib.metadata import version

        sqlfluff = version("sqlfluff")
    except Exception:  # not installed where the script runs: the anchors failed already
        sqlfluff = "?"
    return (f"Machine: {cores} cores, {platform.system()}, Python {platform.python_version()}, sqlfluff {sqlfluff}; "
            f"load average (1 min) {load_before[0]:.1f} before the run, {load_after[0]:.1f} after; commit {commit()}.")


def load_text(load_before: tuple[float, ...], load_after: tuple[float, ...]) -> str:
    return f"{load_before[0]:.1f} / {load_after[0]:.1f}"


def replace_block(text: str, name: str, body: str) -> str:
    """`text` with the block between `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->` set to `body`."""
    begin, end = f"<!-- bench:{name}:begin -->", f"<!-- bench:{name}:end -->"
    at, until = text.find(begin), text.find(end)
    if at < 0 or until < at:
        raise SystemExit(f"bench: {DOC} has no {begin} ... {end} block")
    return text[: at + len(begin)] + "\n" + body.rstrip("\n") + "\n" + text[until:]


def block(text: str, name: str) -> str:
    found = re.search(rf"<!-- bench:{name}:begin -->\n(.*?)<!-- bench:{name}:end -->", text, flags=re.DOTALL)
    return found.group(1) if found else ""


def write_block(name: str, body: str, doc: Path = DOC) -> None:
    """Set one marked block of the page (the `flinkx test` table: `test`) to `body`."""
    doc.write_text(replace_block(doc.read_text(encoding="utf-8"), name, body), encoding="utf-8")


def _widened(line: str) -> str:
    """A history row of a run before the PR-check column: an empty cell in its place."""
    cells = line.strip().strip("|").split("|")
    if len(cells) == len(HISTORY_HEADER) - 1:
        cells.insert(HISTORY_HEADER.index("PR check (s)"), " ")
    return "|" + "|".join(cells) + "|"


def write(tables: list[str], facts: str, history: list[str], doc: Path = DOC) -> None:
    """Set the tables block to this run's tables and append this run's rows to the history table."""
    text = doc.read_text(encoding="utf-8")
    body = facts + "\n\n" + "\n\n".join(tables)
    text = replace_block(text, "tables", body)
    old = [_widened(line) for line in block(text, "history").splitlines() if line.startswith("| ") and not line.startswith("| commit")]
    rows = ["| " + " | ".join(HISTORY_HEADER) + " |", "|---|---|" + "---:|" * (len(HISTORY_HEADER) - 2), *old, *history]
    text = replace_block(text, "history", "\n".join(rows))
    doc.write_text(text, encoding="utf-8")
