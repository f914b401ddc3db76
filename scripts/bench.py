"""Benchmark flinkx at workspace scale, as a user runs it (whole processes), and print one table.

    python3 scripts/bench.py [--tasks 1000] [--runs 1] [--quick-runs 5] [--keep DIR]

Generates a workspace of --tasks tasks (scripts/benchgen.py: the example
workspace's four projects copied with per-copy table names) in a temporary git
repository and times every job of issue 13 beside its sqlfluff anchor:

* cold `flinkx build` (no cache, no build folder) against `sqlfluff parse
  --dialect flink` of the compiled files, one process per core at once;
* warm build with nothing changed, and a build after one task changed;
* `flinkx lint FILE` against `sqlfluff lint --dialect flink FILE`;
* `flinkx lint .`, cache warm and cache cold, against `sqlfluff lint
  --dialect flink --processes <cores>` of the task files;
* `flinkx impact --base HEAD` with one meta table changed in the working tree.

Wall time is the median of --runs runs (one by default) for the cold jobs,
and of --quick-runs runs (five by default) for the jobs with a target in
seconds (warm build, one task changed, lint one file and its anchor, warm
lint, impact): each takes a second or two, and on a shared machine one run
of it moves by more than most changes to flinkx do. Peak RSS is the
kernel's ru_maxrss from os.wait4() of each process the job started: the
largest resident set of any one process of the job, its reaped children
included (a process pool's worker counts on its own; RSS is not summed).
Every flinkx job must exit 0 (impact: 0 or 1) or the script stops with the
command's output, so the table never shows the time of a failure.
"""
from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from benchgen import generate  # noqa: E402

FLINKX = [sys.executable, "-m", "flinkx_build"]
SQLFLUFF = [sys.executable, "-m", "sqlfluff"]
GIT_ID = ["-c", "user.name=flinkx bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]
RSS_LIMIT_MB = 500.0


@dataclass(frozen=True)
class Run:
    """One job's measurement: median wall seconds over its runs and the peak RSS of any run."""

    seconds: float
    peak_mb: float
    times: tuple[float, ...] = ()  # every run's wall seconds, in order (printed to stderr with the row)


@dataclass(frozen=True)
class Target:
    """What the issue asks: an absolute bound in seconds, or a bound on the ratio to the anchor."""

    max_seconds: float | None = None
    max_ratio: float | None = None

    def text(self) -> str:
        if self.max_ratio is not None:
            return f"ratio <= {self.max_ratio:g}"
        return f"<= {self.max_seconds:g} s" if self.max_seconds is not None else ""

    def met(self, flinkx: Run, anchor: Run | None) -> bool:
        if self.max_ratio is not None and anchor is not None:
            return flinkx.seconds / anchor.seconds <= self.max_ratio
        return self.max_seconds is None or flinkx.seconds <= self.max_seconds


@dataclass(frozen=True)
class Row:
    job: str
    flinkx: Run
    anchor: Run | None
    target: Target

    def cells(self) -> list[str]:
        anchor = f"{self.anchor.seconds:.2f}" if self.anchor else ""
        ratio = f"{self.flinkx.seconds / self.anchor.seconds:.2f}" if self.anchor else ""
        met = self.target.met(self.flinkx, self.anchor) and self.flinkx.peak_mb <= RSS_LIMIT_MB
        return [self.job, f"{self.flinkx.seconds:.2f}", anchor, ratio, self.target.text(),
                f"{self.flinkx.peak_mb:.0f}", f"{self.anchor.peak_mb:.0f}" if self.anchor else "", "yes" if met else "NO"]


HEADER = ["job", "flinkx (s)", "anchor (s)", "ratio", "target", "flinkx peak RSS (MB)", "anchor peak RSS (MB)", "met"]


def run_processes(commands: list[list[str]], cwd: Path, ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """Start `commands` at once, wait for all; wall seconds and the largest ru_maxrss (MB) among them."""
    # Output goes to temporary files, not pipes: a full pipe would stall a process (sqlfluff parse prints trees).
    outputs = [tempfile.TemporaryFile() for _ in commands]
    started = time.perf_counter()
    procs = [subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT) for cmd, out in zip(commands, outputs)]
    statuses = [os.wait4(proc.pid, 0) for proc in procs]
    seconds = time.perf_counter() - started
    peak_kb = 0
    for (_, status, usage), cmd, out in zip(statuses, commands, outputs):
        code = os.waitstatus_to_exitcode(status)
        peak_kb = max(peak_kb, usage.ru_maxrss)
        out.seek(0)
        if code not in ok:
            tail = out.read()[-3000:].decode(errors="replace")
            sys.exit(f"bench: {' '.join(cmd[:6])} ... exited {code}:\n{tail}")
        out.close()
    return seconds, peak_kb / 1024


def measure(commands: list[list[str]], cwd: Path, runs: int, before: Callable[[], None] | None = None,
            ok: tuple[int, ...] = (0,)) -> Run:
    times, peaks = [], []
    for _ in range(runs):
        if before:
            before()
        seconds, peak = run_processes(commands, cwd, ok)
        times.append(seconds)
        peaks.append(peak)
    return Run(statistics.median(times), max(peaks), tuple(times))


class ProgressRows(list):
    """The table's rows; each is also printed to stderr as it is measured (a 1,000-task run takes minutes)."""

    def append(self, row: Row) -> None:
        print("bench: " + " | ".join(row.cells()), file=sys.stderr, flush=True)
        if len(row.flinkx.times) > 1:  # the spread behind a median: one slow minute of a shared machine shows here
            print("bench:   runs: " + " ".join(f"{t:.2f}" for t in row.flinkx.times), file=sys.stderr, flush=True)
        super().append(row)


def split_into_folders(paths: list[Path], parts: int) -> list[Path]:
    """Copy `paths` round-robin into `parts` fresh folders (`sqlfluff parse` takes one PATH)."""
    root = Path(tempfile.mkdtemp(prefix="flinkx-bench-anchor-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    folders = []
    for index in range(min(parts, len(paths))):
        folder = root / f"part{index}"
        folder.mkdir()
        for number, path in enumerate(paths[index::parts]):
            shutil.copyfile(path, folder / f"{number:05d}_{path.name}")
        folders.append(folder)
    return folders


def git(ws: Path, *args: str) -> None:
    subprocess.run(["git", *GIT_ID, *args], cwd=ws, check=True, capture_output=True)


def bench(ws: Path, runs: int, cores: int, quick: int) -> list[Row]:
    cache, build = ws / ".flinkx-cache", ws / "build"

    def cold() -> None:
        shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(build, ignore_errors=True)

    tasks = sorted((ws / "projects").glob("*/tasks/**/*.sql"))
    one_task = tasks[len(tasks) // 2]
    original = one_task.read_text(encoding="utf-8")
    edits = iter(range(1, 1_000_000))

    def change_one_task() -> None:
        one_task.write_text(original + f"-- bench edit {next(edits)}\n", encoding="utf-8")

    rows = ProgressRows()
    cold_build = measure([[*FLINKX, "build", "."]], ws, runs, cold)
    compiled = sorted(build.rglob("*.sql"))
    parse_anchor = measure([[*SQLFLUFF, "parse", "--dialect", "flink", str(part)] for part in split_into_folders(compiled, cores)],
                           ws, runs, ok=(0, 1))
    rows.append(Row(f"cold build ({len(compiled)} compiled files)", cold_build, parse_anchor, Target(max_ratio=0.6)))
    rows.append(Row("warm build, nothing changed", measure([[*FLINKX, "build", "."]], ws, quick), None, Target(0.5)))
    rows.append(Row("build after one task changed", measure([[*FLINKX, "build", "."]], ws, quick, change_one_task),
                    None, Target(1.0)))
    one_file = str(one_task.relative_to(ws))
    # each run lints a file just changed (as after the build above): a second lint of the same bytes is a replay
    rows.append(Row("lint one file", measure([[*FLINKX, "lint", one_file]], ws, quick, change_one_task),
                    measure([[*SQLFLUFF, "lint", "--dialect", "flink", one_file]], ws, quick, ok=(0, 1)), Target(0.8)))
    lint_anchor = measure([[*SQLFLUFF, "lint", "--dialect", "flink", "--processes", str(cores), *map(str, tasks)]],
                          ws, runs, ok=(0, 1))
    measure([[*FLINKX, "lint", "."]], ws, 1)  # fill the cache for the warm run
    rows.append(Row("lint whole workspace, cache warm", measure([[*FLINKX, "lint", "."]], ws, quick), lint_anchor,
                    Target(2.0)))
    rows.append(Row("lint whole workspace, cache cold", measure([[*FLINKX, "lint", "."]], ws, runs, cold), lint_anchor,
                    Target(max_ratio=0.8)))
    one_task.write_text(original, encoding="utf-8")
    rows.append(Row("impact, one meta table changed", impact(ws, quick), None, Target(2.0)))
    return rows


def impact(ws: Path, runs: int) -> Run:
    """Commit the workspace, change one option of a table that several tasks read, time `flinkx impact`
    (the option gets a new value before each run, so each is the first impact of that change)."""
    (ws / ".gitignore").write_text("build/\n.flinkx-cache/\n", encoding="utf-8")  # as a real repository has
    git(ws, "init", "-q")
    git(ws, "add", "-A")
    git(ws, "commit", "-q", "-m", "bench base")
    table = ws / "projects" / "dim" / "tables" / "dim_user_c000.yaml"
    original = table.read_text(encoding="utf-8")
    values = iter(range(5, 1_000_000))

    def change_the_table() -> None:
        changed = original.replace('lookup.max-retries: "3"', f'lookup.max-retries: "{next(values)}"')
        if changed == original:
            sys.exit(f"bench: {table} has no lookup.max-retries to change")
        table.write_text(changed, encoding="utf-8")

    return measure([[*FLINKX, "impact", "--base", "HEAD", "--fail-on", "never", "."]], ws, runs, change_the_table)


def render(rows: list[Row], tasks: int, cores: int) -> str:
    lines = [f"flinkx benchmark: {tasks} tasks, {cores} cores, Python {sys.version.split()[0]}", "",
             "| " + " | ".join(HEADER) + " |", "|---|" + "---:|" * 6 + "---|"]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def compile_package() -> None:
    """Byte-compile flinkx's modules first, as `pip install` does for an installed package.

    An editable install (and PYTHONDONTWRITEBYTECODE=1, set on some CI
    machines) leaves them uncompiled, and every process would compile ~300
    modules again: 0.15 s of each run that no user of the installed tool pays.
    """
    import compileall

    import flinkx_build

    compileall.compile_dir(str(Path(flinkx_build.__file__).parent), quiet=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=1, help="runs of each cold job (minutes each at 1,000 tasks)")
    parser.add_argument("--quick-runs", type=int, default=5, help="runs of each job with a target in seconds")
    parser.add_argument("--keep", type=Path, help="generate the workspace here and keep it (must not exist)")
    opts = parser.parse_args()
    cores = os.cpu_count() or 1
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        ws = generate(opts.keep or Path(tmp) / "workspace", opts.tasks)
        print(render(bench(ws, opts.runs, cores, opts.quick_runs), opts.tasks, cores))


if __name__ == "__main__":
    main()
