"""Benchmark the main jobs as a user runs them (whole processes) and print a table.

    python3 scripts/bench.py [--runs 3] [--tasks 300] [--skip-validate]

Targets come from the issues: lint of one file < 1.5 s, validate of the
example workspace < 30 s. Timings are wall-clock medians of separate runs on a
copy of the example workspace and on a generated workspace.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "example-workspace"


def timed(args: list[str], cwd: Path, runs: int, before=None) -> tuple[float, int]:
    times, code = [], 0
    for _ in range(runs):
        if before:
            before()
        started = time.perf_counter()
        code = subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, capture_output=True).returncode
        times.append(time.perf_counter() - started)
    return statistics.median(times), code


def generate(root: Path, tasks: int) -> Path:
    """A workspace of `tasks` tasks over 10 projects, each reading and writing meta tables."""
    ws = root / "generated"
    (ws / "projects").mkdir(parents=True)
    (ws / "flinkx.yaml").write_text("engine: flink\nvariables: {env: bench}\n")
    projects = [f"p{i:02d}" for i in range(10)]
    for project in projects:
        tables = ws / "projects" / project / "tables"
        tables.mkdir(parents=True)
        for t in range(10):
            tables.joinpath(f"t{t}.yaml").write_text(
                "type: kafka\ncolumns:\n  - {name: id, type: STRING}\n  - {name: amount, type: BIGINT}\n"
                "  - {name: ts, type: \"TIMESTAMP(3)\"}\n"
                f"with: {{connector: kafka, topic: \"{project}_t{t}_${{env}}\", format: json}}\n"
            )
    for n in range(tasks):
        project = projects[n % 10]
        upstream = projects[(n + 1) % 10]
        task = ws / "projects" / project / "tasks" / f"task_{n:04d}.sql"
        task.parent.mkdir(parents=True, exist_ok=True)
        task.write_text(
            f"SET {upstream}.t{n % 10}.`properties.group.id` = 'g_{n}';\n"
            f"INSERT INTO t{(n + 3) % 10}\nSELECT a.id, a.amount + b.amount, a.ts\n"
            f"FROM {upstream}.t{n % 10} AS a JOIN t{(n + 5) % 10} AS b ON a.id = b.id\nWHERE a.amount > 0;\n"
        )
    return ws


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=300)
    parser.add_argument("--skip-validate", action="store_true")
    opts = parser.parse_args()
    rows: list[tuple[str, str, float, int, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ws = root / "example"
        shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
        drop_cache = lambda: shutil.rmtree(ws / ".flinkx-cache", ignore_errors=True)  # noqa: E731
        one_file = sorted((ws / "projects").rglob("*.sql"))[0]
        tasks = len(list((ws / "projects").rglob("*.sql")))
        rows.append(("build example (cold cache)", f"{tasks} tasks", *timed(["build", "."], ws, opts.runs, drop_cache), ""))
        rows.append(("build example (warm cache)", f"{tasks} tasks", *timed(["build", "."], ws, opts.runs), ""))
        rows.append(("lint one file", one_file.name, *timed(["lint", str(one_file)], ws, opts.runs), "< 1.5 s"))
        rows.append(("lint example", f"{tasks} tasks", *timed(["lint", "."], ws, opts.runs), ""))
        if not opts.skip_validate:
            rows.append(("validate example", f"{tasks} tasks", *timed(["validate", "."], ws, 1), "< 30 s"))
        gen = generate(root, opts.tasks)
        drop = lambda: shutil.rmtree(gen / ".flinkx-cache", ignore_errors=True)  # noqa: E731
        rows.append(("build generated (cold cache)", f"{opts.tasks} tasks", *timed(["build", "."], gen, 1, drop), ""))
        rows.append(("build generated (warm cache)", f"{opts.tasks} tasks", *timed(["build", "."], gen, opts.runs), ""))
        one = sorted((gen / "projects").rglob("*.sql"))[0]
        rows.append(("lint one file of generated", f"{opts.tasks} tasks", *timed(["lint", str(one)], gen, opts.runs), ""))
    print("| job | size | median wall (s) | exit | target |\n|---|---|---:|---:|---|")
    for job, size, seconds, code, target in rows:
        print(f"| {job} | {size} | {seconds:.2f} | {code} | {target} |")


if __name__ == "__main__":
    main()
