#!/usr/bin/env python
"""Benchmark the flinkx pre-commit hooks on a large generated workspace.

Generates a workspace of --tasks tasks (default 1,000) with one meta table per
task in a temporary git repository, changes ONE task, and times:

* `flinkx lint <that file>` run directly (the hook's command, no pre-commit);
* `pre-commit run flinkx-lint` on that one staged file, through the real
  pre-commit and a hook environment installed from this repository (the
  environment is built once first, and its build time is reported apart);
* `flinkx build --check` directly and `pre-commit run flinkx-build`, cold
  (empty parse cache) and warm, for comparison.

Each run is repeated --repeat times; the table shows the median and the
slowest, then where `flinkx lint FILE` spends its time (import, workspace
load, lint). The issue's budget: the flinkx-lint hook on one changed file of
a 1,000-task workspace in under 2 s, caches warm (the very first run after a
clone is reported apart). Exit status 1 when over the budget.

    python scripts/bench_precommit.py                 # 1,000 tasks
    python scripts/bench_precommit.py --tasks 200 --repeat 5
    python scripts/bench_precommit.py --keep          # keep the temp folder
    python scripts/bench_precommit.py --profile       # + cProfile of `flinkx lint FILE`

The hook repository is a snapshot of this working tree (tracked and untracked,
non-ignored files, committed into a temporary git repository), because
pre-commit installs hooks from a commit. Pass --hook-repo to use another
checkout and --pre-commit-home to reuse an environment cache.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUDGET_S = 2.0
GIT_ID = ["-c", "user.name=flinkx bench", "-c", "user.email=bench@example.invalid", "-c", "commit.gpgsign=false"]


# --------------------------------------------------------------------------- workspace


def table_yaml(project: str, name: str, topic: str) -> str:
    return f"""\
# generated meta table {project}.{name}
name: {name}
type: kafka
kind: stream
description: Generated table {name} of project {project}.
columns:
  - {{name: id, type: BIGINT, comment: "row id"}}
  - {{name: user_id, type: BIGINT}}
  - {{name: amount, type: "DECIMAL(12, 2)"}}
  - {{name: channel, type: STRING}}
  - {{name: status, type: STRING}}
  - {{name: ts, type: "TIMESTAMP(3)"}}
with:
  connector: kafka
  topic: {topic}
  properties.bootstrap.servers: "${{kafka_servers}}"
  properties.group.id: {project}_default
  scan.startup.mode: group-offsets
  format: json
locked: [topic, properties.bootstrap.servers]
"""


def task_sql(project: str, name: str, sink: str, source: str) -> str:
    return f"""\
-- generated task {project}/{name}: {source} -> {sink}
SET {source.split('.')[-1]}.`properties.group.id` = '{project}_{name.replace('/', '_')}_${{env}}';

INSERT INTO {sink}
SELECT
  id,
  user_id,
  amount,
  channel,
  status,
  ts
FROM {source}
WHERE status <> 'TEST' AND amount > 0;
"""


def generate_workspace(root: Path, tasks: int, projects: int) -> dict[str, int]:
    """A workspace of `tasks` tasks in `projects` projects, one meta table per task.

    Task i of project p reads table i-1 of p (the first task of a project
    reads the last table of the previous project, a cross-project reference;
    the very first task reads p00.source_events) and writes its own table i:
    a chain, no cycle. Tasks sit in sub-folders of 25.
    """
    root.mkdir(parents=True)
    (root / "flinkx.yaml").write_text(
        "name: bench\nengine: flink\nflink_version: \"1.20\"\ndataphin_version: \"3.7\"\nmode: stream\n"
        "variables:\n  env: prod\n  kafka_servers: \"kafka-1:9092,kafka-2:9092\"\n",
        encoding="utf-8",
    )
    per_project = [tasks // projects + (1 if p < tasks % projects else 0) for p in range(projects)]
    n_tables = 0
    for p, count in enumerate(per_project):
        project = f"p{p:02d}"
        pdir = root / "projects" / project
        (pdir / "tables").mkdir(parents=True)
        (pdir / "project.yaml").write_text(f"name: {project}\ndescription: generated project {p}\n", encoding="utf-8")
        if p == 0:
            (pdir / "tables" / "source_events.yaml").write_text(table_yaml(project, "source_events", "source_events"), encoding="utf-8")
            n_tables += 1
        for i in range(count):
            table = f"t_{i:04d}"
            (pdir / "tables" / f"{table}.yaml").write_text(table_yaml(project, table, f"{project}_{table}"), encoding="utf-8")
            n_tables += 1
            if i > 0:
                source = f"t_{i - 1:04d}"
            elif p > 0:
                source = f"p{p - 1:02d}.t_{per_project[p - 1] - 1:04d}"
            else:
                source = "source_events"  # the one table no task writes (no cycle)
            name = f"g{i // 25:02d}/task_{i:04d}"
            path = pdir / "tasks" / f"{name}.sql"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(task_sql(project, name, table, source), encoding="utf-8")
    (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n", encoding="utf-8")
    return {"projects": projects, "tables": n_tables, "tasks": tasks}


# --------------------------------------------------------------------------- git / pre-commit


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *GIT_ID, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


def snapshot_repo(source: Path, dest: Path) -> tuple[Path, str]:
    """Commit the working tree of `source` (tracked + untracked, not ignored) into a new repo."""
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=source, check=True, capture_output=True, text=True,
    ).stdout.split("\0")
    dest.mkdir(parents=True)
    for rel in filter(None, files):
        src = source / rel
        if src.is_file():
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    git("init", "-q", cwd=dest)
    git("add", "-A", cwd=dest)
    git("commit", "-q", "-m", "flinkx hook snapshot", cwd=dest)
    return dest, git("rev-parse", "HEAD", cwd=dest)


def timed(cmd: list[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)) -> tuple[float, subprocess.CompletedProcess]:
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if proc.returncode not in ok:
        sys.stderr.write(f"$ {' '.join(cmd)}  (exit {proc.returncode})\n{proc.stdout}\n{proc.stderr}\n")
        raise SystemExit(f"bench: command failed: {' '.join(cmd)}")
    return elapsed, proc


def repeat(n: int, cmd: list[str], cwd: Path, env: dict[str, str], before=None) -> list[float]:
    times = []
    for _ in range(n):
        if before:
            before()
        times.append(timed(cmd, cwd, env)[0])
    return times


def flinkx_exe() -> str:
    exe = shutil.which("flinkx")
    return exe or str(Path(sys.executable).with_name("flinkx"))


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tasks", type=int, default=1000)
    ap.add_argument("--projects", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--hook-repo", type=Path, default=None, help="git repository with .pre-commit-hooks.yaml (default: a snapshot of this working tree)")
    ap.add_argument("--pre-commit-home", type=Path, default=None, help="PRE_COMMIT_HOME to use (default: a fresh temp dir, so the env build is measured)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ap.add_argument("--profile", action="store_true", help="also print a cProfile summary of `flinkx lint FILE` in-process")
    ap.add_argument("--skip-precommit", action="store_true", help="only time flinkx directly")
    args = ap.parse_args(argv)

    tmp = Path(tempfile.mkdtemp(prefix="flinkx-bench-"))
    rows: list[tuple[str, str, list[float]]] = []
    try:
        repo = tmp / "workspace-repo"
        repo.mkdir()
        ws = repo / "warehouse"  # the workspace is a sub-folder, as in most repositories
        t0 = time.perf_counter()
        size = generate_workspace(ws, args.tasks, args.projects)
        git("init", "-q", "-b", "main", cwd=repo)
        git("add", "-A", cwd=repo)
        git("commit", "-q", "-m", "generated workspace", cwd=repo)
        print(f"generated {size['tasks']} tasks, {size['tables']} tables, {size['projects']} projects in {time.perf_counter() - t0:.1f} s: {ws}", file=sys.stderr)

        all_tasks = sorted((ws / "projects").glob("*/tasks/**/*.sql"))
        changed = all_tasks[len(all_tasks) * 2 // 5]  # p03/tasks/g01/task_0030.sql with the defaults
        rel_changed = changed.relative_to(repo).as_posix()
        original = changed.read_text(encoding="utf-8")
        flip = [0]

        def touch() -> None:
            # a real edit each time (the hook must not be able to skip it) and staged
            flip[0] += 1
            changed.write_text(original.replace("amount > 0", f"amount > {flip[0]}"), encoding="utf-8")
            git("add", rel_changed, cwd=repo)

        env = dict(os.environ)
        env.pop("FLINKX_DEBUG", None)
        fx = flinkx_exe()

        # -- flinkx directly -------------------------------------------------
        touch()
        rows.append(("flinkx lint FILE (first run: empty .flinkx-cache)", "1 task", [timed([fx, "lint", rel_changed], repo, env)[0]]))
        rows.append(("flinkx build --check (cold: no parse cache)", f"{size['tasks']} tasks", [timed([fx, "build", "--check", "warehouse"], repo, env)[0]]))
        rows.append(("flinkx build --check (warm parse cache)", f"{size['tasks']} tasks", repeat(args.repeat, [fx, "build", "--check", "warehouse"], repo, env)))
        rows.append(("flinkx lint FILE (direct)", "1 task", repeat(args.repeat, [fx, "lint", rel_changed], repo, env, touch)))
        rows.append(("flinkx lint FILE flinkx.yaml (direct)", "1 task + flinkx.yaml", repeat(args.repeat, [fx, "lint", rel_changed, "warehouse/flinkx.yaml"], repo, env, touch)))
        rows.append(("python -c 'import flinkx_build.cli' (start-up)", "-", repeat(args.repeat, [sys.executable, "-c", "import flinkx_build.cli"], repo, env)))

        # -- through pre-commit ----------------------------------------------
        if not args.skip_precommit:
            home = args.pre_commit_home or (tmp / "pre-commit-home")
            env["PRE_COMMIT_HOME"] = str(home)
            if args.hook_repo:
                hook_repo, rev = args.hook_repo.resolve(), git("rev-parse", "HEAD", cwd=args.hook_repo)
            else:
                hook_repo, rev = snapshot_repo(REPO, tmp / "hook-repo")
            (repo / ".pre-commit-config.yaml").write_text(
                "repos:\n"
                f"  - repo: {hook_repo}\n"
                f"    rev: {rev}\n"
                "    hooks:\n"
                "      - id: flinkx-lint\n"
                "      - id: flinkx-build\n"
                "        args: [warehouse]\n",
                encoding="utf-8",
            )
            git("add", ".pre-commit-config.yaml", cwd=repo)
            git("commit", "-q", "-m", "pre-commit config", cwd=repo)
            rows.append(("pre-commit install-hooks (env build, once)", "-", [timed(["pre-commit", "install-hooks"], repo, env)[0]]))
            rows.append(("pre-commit run flinkx-lint (1 staged file)", "1 task", repeat(args.repeat, ["pre-commit", "run", "flinkx-lint"], repo, env, touch)))
            rows.append(("pre-commit run flinkx-build (1 staged file)", f"{size['tasks']} tasks", repeat(args.repeat, ["pre-commit", "run", "flinkx-build"], repo, env, touch)))

        print_table(size, rows)
        # the budget is for the everyday commit: caches as the previous commit left them
        lint_rows = [r for r in rows if r[0].startswith(("pre-commit run flinkx-lint", "flinkx lint FILE (direct)"))]
        worst = max(max(r[2]) for r in lint_rows)
        verdict = "within" if worst < BUDGET_S else "OVER"
        print(f"\nflinkx-lint on one changed file: slowest {worst:.2f} s, {verdict} the {BUDGET_S:.0f} s budget")

        print_phases(repo, rel_changed)
        if args.profile:
            profile_lint(repo, rel_changed)
        return 0 if worst < BUDGET_S else 1
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def print_table(size: dict[str, int], rows: list[tuple[str, str, list[float]]]) -> None:
    print()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"workspace: {size['tasks']} tasks, {size['tables']} meta tables, {size['projects']} projects  (python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load})")
    head = ("what", "files linted / compiled", "runs", "median s", "max s")
    body = [(what, files, str(len(t)), f"{statistics.median(t):.2f}", f"{max(t):.2f}") for what, files, t in rows]
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    line = "  ".join("-" * w for w in widths)
    print(line)
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)))
    print(line)
    for r in body:
        print("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    print(line)


PHASES = r"""
import json, sys, time
t0 = time.perf_counter()
import flinkx_build.cli  # noqa: F401  (what every flinkx command imports)
t1 = time.perf_counter()
from pathlib import Path
from flinkx_build.load import tables, workspace, yaml_io
spent = [0.0, 0]
original = yaml_io.load_yaml
def timed_load_yaml(path, display, *rest):
    started = time.perf_counter()
    try:
        return original(path, display, *rest)
    finally:
        spent[0] += time.perf_counter() - started
        spent[1] += 1
yaml_io.load_yaml = tables.load_yaml = workspace.load_yaml = timed_load_yaml
from flinkx_build.commands.common import open_session
from flinkx_build.commands.lint import group_paths
from flinkx_build.lint.run import lint_workspace
[(ws, files)] = group_paths((Path(sys.argv[1]),))
t2 = time.perf_counter()
session = open_session(ws)
t3 = time.perf_counter()
diags, _ = lint_workspace(session, files)
t4 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t3 - t2, "yaml": spent[0], "yaml_files": spent[1], "lint": t4 - t3, "findings": len(diags)}))
"""


def print_phases(repo: Path, rel_file: str) -> None:
    """Where `flinkx lint FILE` spends its time, measured in one process."""
    proc = subprocess.run([sys.executable, "-c", PHASES, rel_file], cwd=repo, capture_output=True, text=True)
    try:
        import json

        t = json.loads(proc.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        print(f"\n(phase breakdown unavailable: {proc.stderr.strip()[-300:]})")
        return
    total = t["import"] + t["load"] + t["lint"]
    print(f"\nflinkx lint FILE, phases in one process ({total:.2f} s):")
    print(f"  import flinkx + sqlfluff              {t['import']:6.2f} s")
    print(f"  load the workspace                    {t['load']:6.2f} s  (of which YAML parsing: {t['yaml']:.2f} s for {t['yaml_files']} files)")
    print(f"  lint the file (sqlfluff + resolve)    {t['lint']:6.2f} s")


def profile_lint(repo: Path, rel_file: str) -> None:
    """cProfile of `flinkx lint FILE` in this process (imports included)."""
    code = (
        "import cProfile, pstats, sys\n"
        "pr = cProfile.Profile(); pr.enable()\n"
        "from flinkx_build.cli import main\n"
        "try:\n"
        f"    main([ 'lint', {rel_file!r} ], standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "pr.disable()\n"
        "pstats.Stats(pr, stream=sys.stdout).sort_stats('cumulative').print_stats(35)\n"
    )
    print("\n== cProfile: flinkx lint FILE (cumulative, top 35) ==")
    proc = subprocess.run([sys.executable, "-c", code], cwd=repo, capture_output=True, text=True)
    print(proc.stdout[-12000:])


if __name__ == "__main__":
    sys.exit(main())
