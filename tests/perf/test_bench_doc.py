"""The scaling table's floor rows (`scripts/bench_doc.scaling_table`), on figures given here."""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import bench_doc  # noqa: E402


def _rows(**seconds: float) -> list[SimpleNamespace]:
    jobs = {"nothing": bench_doc.SCALED_JOBS[0], "floor": bench_doc.FLOOR_JOB}
    return [SimpleNamespace(job=jobs[name], flinkx=SimpleNamespace(seconds=s)) for name, s in seconds.items()]


def _cells(table: str, job: str) -> list[str]:
    line = next(line for line in table.splitlines() if line.startswith(f"| {job} |"))
    return [cell.strip() for cell in line.strip().strip("|").split("|")][1:]


def test_nothing_changed_at_best_adds_only_the_floors_growth_to_the_fewest_projects_time() -> None:
    table = bench_doc.scaling_table({100: _rows(nothing=0.10, floor=0.01), 1600: _rows(nothing=0.26, floor=0.13)})
    assert _cells(table, bench_doc.SCALED_JOBS[0]) == ["0.10", "0.26", "2.60", "NO"]
    assert _cells(table, bench_doc.FLOOR_JOB) == ["0.01", "0.13", "13.00", ""]  # a bound, not a job: no verdict
    assert _cells(table, bench_doc.AT_BEST_JOB) == ["0.10", "0.22", "2.20", "NO"]


def test_a_floor_that_grows_little_lets_the_row_be_met() -> None:
    table = bench_doc.scaling_table({100: _rows(nothing=0.40, floor=0.01), 1600: _rows(nothing=0.50, floor=0.05)})
    assert _cells(table, bench_doc.AT_BEST_JOB)[-2:] == ["1.10", "yes"]
    assert _cells(table, bench_doc.SCALED_JOBS[0])[-1] == "yes"


def test_history_rows_of_runs_before_the_pr_check_column_keep_their_cells_in_place(tmp_path):
    page = tmp_path / "performance.md"
    old = "| abc | 1,000 tasks in 4 projects | 0.5 | 0.1 | 0.5 | 0.4 | 0.9 | 0.6 | 164 | 1.0 / 2.6 |"
    page.write_text(f"<!-- bench:tables:begin -->\n<!-- bench:tables:end -->\n<!-- bench:history:begin -->\n{old}\n"
                    "<!-- bench:history:end -->\n", encoding="utf-8")
    bench_doc.write([], "facts", [], page)
    rows = [line for line in bench_doc.block(page.read_text(), "history").splitlines() if line.startswith("| abc")]
    cells = [c.strip() for c in rows[0].strip().strip("|").split("|")]
    assert len(cells) == len(bench_doc.HISTORY_HEADER)
    assert cells[bench_doc.HISTORY_HEADER.index("PR check (s)")] == "" and cells[-2:] == ["164", "1.0 / 2.6"]


def test_the_history_keeps_a_pr_check_figure_only_when_it_planned() -> None:
    def pr_row(job: str) -> SimpleNamespace:
        return SimpleNamespace(job=job, flinkx=SimpleNamespace(seconds=37.5, peak_mb=410.0), anchor=None)

    column = bench_doc.HISTORY_HEADER.index("PR check (s)")
    planned = bench_doc.history_row("abc", "shape", [pr_row(bench_doc.PR_CHECK_JOB)], "1.0")
    unplanned = bench_doc.history_row("abc", "shape", [pr_row(
        f"{bench_doc.PR_CHECK_JOB} (no planner here, timed without it: FX303 the jars are not here yet)")], "1.0")
    assert [c.strip() for c in planned.strip().strip("|").split("|")][column] == "37.50"
    assert [c.strip() for c in unplanned.strip().strip("|").split("|")][column] == ""
