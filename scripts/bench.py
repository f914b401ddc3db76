"""Benchmark flinkx at workspace scale, as a user runs it (whole processes), and print its tables.

    python3 scripts/bench.py [--shape all|both|big|small|large] [--tasks 1000] [--projects 400]
                             [--large-tasks 10000] [--scale 100,1600,6400] [--runs 1] [--quick-runs 5]
                             [--keep DIR] [--write-doc] [--planner]

Generates workspaces of three shapes (scripts/benchgen.py): few big projects
(--tasks tasks in the example's four projects), many small ones (--projects
projects of about three tasks, the shape of real tenants) and a large tenant
(--large-tasks tasks in many small projects: 10,010 tasks in 3,080 projects),
each in a temporary git repository, and times every job of issues 13, 32 and 45
beside its sqlfluff anchor measured in the same run, one table per shape, each
against its issue's targets (`TARGETS`):

* cold `flinkx build` (no cache, no build folder) against `sqlfluff parse
  --dialect flink` of the compiled files, one process per core at once;
* warm build with nothing changed, and a build after one task changed;
* `flinkx lint FILE` against `sqlfluff lint --dialect flink FILE`;
* `flinkx lint .`, cache warm and cache cold, against `sqlfluff lint
  --dialect flink --processes <cores>` of the task files;
* `flinkx impact --base HEAD` with one meta table changed in the working
  tree: the first run of a change, and again with the same change;
* the pull request's check (issue 45): `flinkx lint --changed-since HEAD` with
  one task changed, from no cache at all (a fresh user cache folder, no
  workspace cache) and with the planner (FX301) when Java is here, once.

With --planner (issue 42 item 5), a table of its own on the many-small-projects
workspace: a cold `flinkx lint .` with the planner (FX301, its driver started
cold) against the same cold lint with FLINKX_NO_PLANNER=1, --runs times each in
turn, the ratio against 1.5 and the peak RSS of any one process, the planner's
JVM included (`scripts/bench_planner.py`); `--shape none --planner` runs only it.

Then a scaling table: the per-change jobs on built many-small-projects
workspaces of each --scale size (the --projects run is reused), with the
floor beside them: a bare Python walk that stats every file below projects/,
the least any build must do to know that nothing changed. With
--write-doc the tables replace the marked block of docs/performance.md and
each shape adds a row to its history table (`scripts/bench_doc.py`).

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
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_doc  # noqa: E402
import bench_planner  # noqa: E402
from benchgen import generate  # noqa: E402
from benchgen import generate_large  # noqa: E402
from benchgen import generate_small  # noqa: E402

FLINKX = [sys.executable, "-m", "flinkx_build"]
SQLFLUFF = [sys.executable, "-m", "sqlfluff"]
# The least any build must do to know that nothing changed: stat every file it reads (its outputs aside)
# (no flinkx, no imports; `python -S`): the scaling table's floor row (`bench_doc.scaling_table`).
STAT_WALK = """import os
def walk(folder):
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            walk(entry.path)
        else:
            entry.stat()
walk('projects')
"""
PR_CHECK_SECONDS = 120.0  # issue 45: the pull request's check at 10,000 tasks, from no cache, with the planner
GIT_ID = ["-c", "user.name=flinkx bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]
# the targets compare flinkx's own work with sqlfluff's: the planner check (FX301) is a JVM's work on top,
# paid once per changed task and cached by content, so every flinkx job here runs without it
os.environ["FLINKX_NO_PLANNER"] = "1"


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
class Targets:
    """One shape's targets: its issue's bounds on each job and on any process's peak RSS."""

    cold_build_ratio: float
    nothing_changed: float
    one_task_changed: float
    lint_one_file: float
    impact_again: float
    warm_lint: float
    cold_lint_ratio: float
    rss_mb: float


# issues 13 and 32 (1,000 tasks, in 4 or in 400 projects); issue 45 (10,000 tasks in 3,080 projects)
TARGETS_1000 = Targets(0.6, 0.5, 1.0, 0.8, 2.0, 2.0, 0.8, 500)
TARGETS_10000 = Targets(0.5, 0.5, 1.0, 0.8, 1.0, 2.0, 0.6, 600)


@dataclass(frozen=True)
class Row:
    job: str
    flinkx: Run
    anchor: Run | None
    target: Target
    reference: bool = False  # not a flinkx job: a bound any design meets or exceeds (nothing to meet)
    rss_limit: float | None = TARGETS_1000.rss_mb  # None: a JVM's job, whose memory no target bounds

    def cells(self) -> list[str]:
        anchor = f"{self.anchor.seconds:.2f}" if self.anchor else ""
        ratio = f"{self.flinkx.seconds / self.anchor.seconds:.2f}" if self.anchor else ""
        met = self.target.met(self.flinkx, self.anchor) and (self.rss_limit is None or self.flinkx.peak_mb <= self.rss_limit)
        return [self.job, f"{self.flinkx.seconds:.2f}", anchor, ratio, self.target.text(),
                f"{self.flinkx.peak_mb:.0f}", f"{self.anchor.peak_mb:.0f}" if self.anchor else "",
                "" if self.reference else "yes" if met else "NO"]


HEADER = ["job", "flinkx (s)", "anchor (s)", "ratio", "target", "flinkx peak RSS (MB)", "anchor peak RSS (MB)", "met"]


def run_processes(commands: list[list[str]], cwd: Path, ok: tuple[int, ...] = (0,),
                  env: dict[str, str] | None = None) -> tuple[float, float]:
    """Start `commands` at once, wait for all; wall seconds and the largest ru_maxrss (MB) among them."""
    # Output goes to temporary files, not pipes: a full pipe would stall a process (sqlfluff parse prints trees).
    outputs = [tempfile.TemporaryFile() for _ in commands]
    started = time.perf_counter()
    procs = [subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env) for cmd, out in zip(commands, outputs)]
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
            ok: tuple[int, ...] = (0,), env: Callable[[], dict[str, str]] | None = None) -> Run:
    """`env`: each run's environment (default: this one's)."""
    times, peaks = [], []
    for _ in range(runs):
        if before:
            before()
        seconds, peak = run_processes(commands, cwd, ok, env() if env else None)
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


class Workspace:
    """A generated workspace and the files the per-change jobs edit."""

    def __init__(self, ws: Path) -> None:
        self.ws = ws
        self.tasks = sorted((ws / "projects").glob("*/tasks/**/*.sql"))
        self.one_task = self.tasks[len(self.tasks) // 2]
        self.original = self.one_task.read_text(encoding="utf-8")
        self.edits = iter(range(1, 1_000_000))

    def cold(self) -> None:
        shutil.rmtree(self.ws / ".flinkx-cache", ignore_errors=True)
        shutil.rmtree(self.ws / "build", ignore_errors=True)

    def change_one_task(self) -> None:
        self.one_task.write_text(self.original + f"-- bench edit {next(self.edits)}\n", encoding="utf-8")

    def restore_task(self) -> None:
        self.one_task.write_text(self.original, encoding="utf-8")


def bench(ws: Path, runs: int, cores: int, quick: int, targets: Targets) -> list[Row]:
    """Every job of one shape, beside its sqlfluff anchor measured in the same run."""
    w = Workspace(ws)
    rows = ProgressRows()
    rss = targets.rss_mb
    cold_build = measure([[*FLINKX, "build", "."]], ws, runs, w.cold)
    compiled = sorted((ws / "build").rglob("*.sql"))
    parse_anchor = measure([[*SQLFLUFF, "parse", "--dialect", "flink", str(part)] for part in split_into_folders(compiled, cores)],
                           ws, runs, ok=(0, 1))
    rows.append(Row(f"cold build ({len(compiled)} compiled files)", cold_build, parse_anchor,
                    Target(max_ratio=targets.cold_build_ratio), rss_limit=rss))
    rows.extend(per_change(w, quick, anchors=True, targets=targets))
    lint_anchor = measure([[*SQLFLUFF, "lint", "--dialect", "flink", "--processes", str(cores), *map(str, w.tasks)]],
                          ws, runs, ok=(0, 1))
    measure([[*FLINKX, "lint", "."]], ws, 1)  # fill the cache for the warm run
    rows.append(Row("lint whole workspace, cache warm", measure([[*FLINKX, "lint", "."]], ws, quick), lint_anchor,
                    Target(targets.warm_lint), rss_limit=rss))
    rows.append(Row("lint whole workspace, cache cold", measure([[*FLINKX, "lint", "."]], ws, runs, w.cold), lint_anchor,
                    Target(max_ratio=targets.cold_lint_ratio), rss_limit=rss))
    rows.append(replace(pr_check(w), rss_limit=rss))
    return rows


def pr_check(w: Workspace) -> Row:
    """`flinkx lint --changed-since HEAD` of the committed workspace with one task changed, as a pull request's
    CI runs it: no user cache (a new FLINKX_HOME: the planner's jar is compiled, its JVM started; the target's jars
    named by $FLINKX_FLINK_HOME, as the workflow's fetch step leaves them), no workspace cache, the planner on when
    Java and the jars are here. The row says when they are not, and the run stops when the planner was to run but
    its JVM never started (a check that plans nothing is not the PR check). Peak RSS: the lint's or the JVM's,
    whichever is larger. Once: it is minutes at 10,000 tasks."""
    commit(w.ws)
    lib = bench_planner.planner_lib(w.ws)
    homes = Path(tempfile.mkdtemp(prefix="flinkx-bench-home-"))
    atexit.register(shutil.rmtree, homes, ignore_errors=True)
    home = Path(tempfile.mkdtemp(dir=homes))
    env = bench_planner.planner_env(home, lib) if lib is not None else {**os.environ, "FLINKX_HOME": str(home)}

    def before() -> None:
        w.cold()
        w.change_one_task()

    run = measure([[*FLINKX, "lint", "--changed-since", "HEAD", "."]], w.ws, 1, before, ok=(0, 1), env=lambda: env)
    w.restore_task()
    job = bench_doc.PR_CHECK_JOB
    if lib is None:
        return Row(f"{job} (no planner here, timed without it: {bench_planner.planner_problem(w.ws)})", run, None,
                   Target(PR_CHECK_SECONDS))
    jvm_peak = bench_planner.stop_service(w.ws, home, lib)
    if not jvm_peak:
        sys.exit(f"bench: the PR check's lint ran without its planner service (user cache {home})")
    return Row(job, Run(run.seconds, max(run.peak_mb, jvm_peak), run.times), None, Target(PR_CHECK_SECONDS))


def per_change(w: Workspace, quick: int, anchors: bool, targets: Targets) -> list[Row]:
    """The jobs whose cost should follow the change, not the workspace: on a built workspace."""
    ws, rows, rss = w.ws, ProgressRows(), targets.rss_mb
    rows.append(Row("warm build, nothing changed", measure([[*FLINKX, "build", "."]], ws, quick), None,
                    Target(targets.nothing_changed), rss_limit=rss))
    rows.append(Row(bench_doc.FLOOR_JOB, measure([[sys.executable, "-S", "-c", STAT_WALK]], ws, quick), None, Target(),
                    reference=True, rss_limit=rss))
    rows.append(Row("build after one task changed", measure([[*FLINKX, "build", "."]], ws, quick, w.change_one_task),
                    None, Target(targets.one_task_changed), rss_limit=rss))
    one_file = str(w.one_task.relative_to(ws))
    # each run lints a file just changed (as after the build above): a second lint of the same bytes is a replay
    anchor = measure([[*SQLFLUFF, "lint", "--dialect", "flink", one_file]], ws, quick, ok=(0, 1)) if anchors else None
    rows.append(Row("lint one file", measure([[*FLINKX, "lint", one_file]], ws, quick, w.change_one_task), anchor,
                    Target(targets.lint_one_file), rss_limit=rss))
    w.restore_task()
    first, again = impact(ws, quick)
    rows.append(Row("impact, one meta table changed, first run", first, None, Target(), rss_limit=rss))
    rows.append(Row("impact again, same change", again, None, Target(targets.impact_again), rss_limit=rss))
    return rows


def commit(ws: Path) -> None:
    """The generated workspace as a git repository's first commit (once)."""
    if not (ws / ".git").exists():
        (ws / ".gitignore").write_text("build/\n.flinkx-cache/\n", encoding="utf-8")  # as a real repository has
        git(ws, "init", "-q")
        git(ws, "add", "-A")
        git(ws, "commit", "-q", "-m", "bench base")


def impact(ws: Path, runs: int) -> tuple[Run, Run]:
    """Commit the workspace, change one option of a table that several tasks read, time `flinkx impact`:
    the first run of each change (a new value before each run), and a run again with the change unchanged."""
    commit(ws)
    table = next((ws / "projects").glob("*/tables/dim_user_c000.yaml"))
    original = table.read_text(encoding="utf-8")
    values = iter(range(5, 1_000_000))

    def change_the_table() -> None:
        changed = original.replace('lookup.max-retries: "3"', f'lookup.max-retries: "{next(values)}"')
        if changed == original:
            sys.exit(f"bench: {table} has no lookup.max-retries to change")
        table.write_text(changed, encoding="utf-8")

    command = [[*FLINKX, "impact", "--base", "HEAD", "--fail-on", "never", "."]]
    first = measure(command, ws, runs, change_the_table)
    again = measure(command, ws, runs)
    table.write_text(original, encoding="utf-8")
    return first, again


def test_suite(ws: Path, runs: int, quick: int) -> tuple[str, list[Row]]:
    """`flinkx test` on a workspace's suite (issue 46): a whole run from cold drivers, and the suite on warm
    drivers (`scripts/bench_test.py`: rounds on kept drivers, the first one warming them), seconds a case."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / ws.name
        shutil.copytree(ws, copy, ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
        with tempfile.TemporaryFile() as out:  # the JVMs' RSS counts: the script waits for its drivers
            proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve().parent / "bench_test.py"),
                                     str(copy), "--rounds", str(quick + 1)], cwd=copy, stdout=out, stderr=subprocess.STDOUT)
            _, status, usage = os.wait4(proc.pid, 0)
            out.seek(0)
            text = out.read().decode(errors="replace")
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"bench: bench_test.py exited {os.waitstatus_to_exitcode(status)}:\n{text[-3000:]}")
        warm = json.loads(text.strip().splitlines()[-1])
        cases, workers = warm["cases"], warm["workers"]
        print(f"  bench_test.py: {warm}", file=sys.stderr, flush=True)
        cold = measure([[*FLINKX, "test", "."]], copy, runs, lambda: shutil.rmtree(copy / ".flinkx-cache", True))
    per_case = Run(cold.seconds / cases, cold.peak_mb, tuple(t / cases for t in cold.times))
    warm_rounds = tuple(r / cases for r in warm["rounds"][1:])
    title = f"flinkx test: the {cases} cases of {ws.name}, {workers} drivers at once (seconds a case)"
    return title, [
        Row("whole `flinkx test` run, drivers started cold", per_case, None, Target(), rss_limit=None),
        Row("the suite on warm drivers", Run(warm["warm_per_case"], usage.ru_maxrss / 1024, warm_rounds), None,
            Target(1.0), rss_limit=None),
    ]


def planner_table(ws: Path, runs: int) -> str | None:
    """Issue 42 item 5: cold lint with the planner against the same cold lint without it (`bench_planner.py`)."""
    found = bench_planner.planner_runs(ws, runs, FLINKX, measure)
    if found is None:
        print(f"bench: no planner here ({bench_planner.planner_problem(ws)}): no planner table", file=sys.stderr)
        return None
    on_times, on_peak, off_times, off_peak = found
    row = Row(bench_planner.JOB, Run(statistics.median(on_times), on_peak, on_times),
              Run(statistics.median(off_times), off_peak, off_times),
              Target(max_ratio=bench_planner.PLANNER_LINT_RATIO), rss_limit=bench_planner.PLANNER_RSS_MB)
    ProgressRows().append(row)
    print("bench:   without the planner: " + " ".join(f"{t:.2f}" for t in off_times), file=sys.stderr, flush=True)
    title = (f"The planner in a cold lint (issue 42): {len(Workspace(ws).tasks)} tasks in {count_projects(ws)} projects, "
             f"{os.cpu_count()} cores, peak RSS of any one process (the planner's JVM included) <= "
             f"{bench_planner.PLANNER_RSS_MB:.0f} MB")
    return render([row], title)


def render(rows: list[Row], title: str) -> str:
    lines = [title, "", "| " + " | ".join(HEADER) + " |", "|---|" + "---:|" * 6 + "---|"]
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
    parser.add_argument("--shape", choices=("all", "both", "big", "small", "large", "none"), default="all",
                        help="all: the three shapes; both: big and small; none: only --test-suite")
    parser.add_argument("--test-suite", nargs="?", type=Path, const=bench_doc.REPO / "example-workspace",
                        metavar="WS", help="also time `flinkx test` on WS's suite (default: the example "
                                           "workspace; needs Java and Flink)")
    parser.add_argument("--tasks", type=int, default=1000, help="tasks of the few-big-projects shape")
    parser.add_argument("--projects", type=int, default=400, help="projects of the many-small-projects shape")
    parser.add_argument("--large-tasks", type=int, default=10_000, help="tasks of the large tenant (in many small projects)")
    parser.add_argument("--scale", default="100,1600,6400",
                        help="project counts of the scaling table of the per-change jobs ('' for none)")
    parser.add_argument("--planner", action="store_true",
                        help="also time a cold lint with the planner against one without it (needs Java and the jars)")
    parser.add_argument("--runs", type=int, default=1, help="runs of each cold job (minutes each at 1,000 tasks)")
    parser.add_argument("--quick-runs", type=int, default=5, help="runs of each job with a target in seconds")
    parser.add_argument("--keep", type=Path, help="generate the workspaces below here and keep them (must not exist)")
    parser.add_argument("--write-doc", nargs="?", type=Path, const=bench_doc.DOC, metavar="PAGE",
                        help=f"also write the tables into PAGE's marked blocks (default "
                             f"{bench_doc.DOC.relative_to(bench_doc.REPO)})")
    opts = parser.parse_args()
    cores = os.cpu_count() or 1
    compile_package()
    scale = [int(n) for n in opts.scale.split(",") if n.strip()]
    shapes = {"all": ("big", "small", "large"), "both": ("big", "small"), "none": ()}.get(opts.shape, (opts.shape,))
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        folder = opts.keep or Path(tmp)
        tables, history, by_size = [], [], {}
        for shape in shapes:
            if shape == "big":
                ws, targets = generate(folder / "big", opts.tasks), TARGETS_1000
            elif shape == "small":
                ws, targets = generate_small(folder / f"small{opts.projects}", opts.projects), TARGETS_1000
            else:
                ws, targets = generate_large(folder / f"large{opts.large_tasks}", opts.large_tasks), TARGETS_10000
            rows = bench(ws, opts.runs, cores, opts.quick_runs, targets)
            title = f"{SHAPE_TITLES[shape]}: {len(Workspace(ws).tasks)} tasks in {count_projects(ws)} projects"
            tables.append(render(rows, title))
            history.append((title, rows))
            print(tables[-1] + "\n", flush=True)
            if shape == "small":
                by_size[opts.projects] = rows
            if shape == "large":
                by_size[count_projects(ws)] = rows
        if opts.planner:
            small = folder / f"small{opts.projects}"
            planner = planner_table(small if small.exists() else generate_small(small, opts.projects), opts.runs)
            if planner:
                tables.append(planner)
                print(planner + "\n", flush=True)
        if scale:
            scaled = {}
            for projects in scale:
                if projects in by_size:
                    scaled[projects] = by_size[projects]
                    continue
                ws = generate_small(folder / f"small{projects}", projects)
                measure([[*FLINKX, "build", "."]], ws, 1)  # the caches a per-change job starts from
                scaled[projects] = per_change(Workspace(ws), opts.quick_runs, anchors=False, targets=TARGETS_10000)
            tables.append(bench_doc.scaling_table(scaled))
            print(tables[-1] + "\n", flush=True)
        test_table = None
        if opts.test_suite:
            title, rows = test_suite(opts.test_suite.resolve(), opts.runs, opts.quick_runs)
            test_table = render(rows, title)
            print(test_table + "\n", flush=True)
    load_after = os.getloadavg()
    facts = bench_doc.machine_facts(cores, load_before, load_after)
    print(facts)
    if opts.write_doc and tables:
        load, commit = bench_doc.load_text(load_before, load_after), bench_doc.commit()
        bench_doc.write(tables, facts, [bench_doc.history_row(commit, title, rows, load) for title, rows in history],
                        opts.write_doc)
    if opts.write_doc and test_table:
        bench_doc.write_block("test", facts + "\n\n" + test_table, opts.write_doc)


SHAPE_TITLES = {"big": "Few big projects", "small": "Many small projects", "large": "Large tenant, many small projects"}


def count_projects(ws: Path) -> int:
    return sum(1 for p in (ws / "projects").iterdir() if p.is_dir())


if __name__ == "__main__":
    main()
