"""The fuzzer (issue 33): hostile edits of the example workspace, every command, one oracle.

Each example applies one or two edits (`strategies`: bytes, tokens,
statements, YAML values, encodings, the file tree) to a copy of the example
workspace that is a git repository with the untouched workspace as its one
commit, then runs in-process build, lint (the file alone, as the pre-commit
hook does; SARIF and JSON), fix --diff, explain and graph as JSON, impact
against the commit, lineage, and the language server's diagnostics for the
edited file, and checks each against `oracle`. A few fixed examples run the
CLI as a real subprocess (`test_subprocess_sample`).

The edited files are parsed cold by every command: parse-cache entries a run
adds are deleted after it (the issue-12 SELECT( crash only showed cold).

Runs: FLINKX_FUZZ_EXAMPLES examples (default 40, a fixed seed: what CI runs);
`FLINKX_FUZZ_EXAMPLES=5000 python -m pytest tests/robustness/fuzz -q -p no:randomly`
for a long run (random seeds unless FLINKX_FUZZ_SEED is set). Every
failure it found is a small explicit test in `test_found.py`.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import seed
from hypothesis import settings
from hypothesis import strategies as st

from flinkx_build.lsp.analysis import Models
from tests.conftest import EXAMPLE
from tests.robustness.fuzz import oracle
from tests.robustness.fuzz import strategies
from tests.robustness.harness import SECONDS_PER_RUN
from tests.robustness.harness import Run
from tests.robustness.harness import run

EXAMPLES = int(os.environ.get("FLINKX_FUZZ_EXAMPLES", "40"))
SEED = int(os.environ.get("FLINKX_FUZZ_SEED", "33"))
CI_RUN = "FLINKX_FUZZ_EXAMPLES" not in os.environ or "FLINKX_FUZZ_SEED" in os.environ
DEFAULT_TASK = "dwd/refunds/enrich_refunds"
DEFAULT_TASK_FILE = "projects/dwd/tasks/refunds/enrich_refunds.sql"
SECRET = strategies.SECRET
GIT = ["git", "-c", "user.name=fuzz", "-c", "user.email=fuzz@example.invalid", "-c", "commit.gpgsign=false"]


@pytest.fixture(scope="module")
def fuzz_ws(tmp_path_factory):
    top = tmp_path_factory.mktemp("fuzz")
    ws, pristine, outside = top / "ws", top / "pristine", top / "outside"
    shutil.copytree(EXAMPLE, pristine, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    shutil.copytree(pristine, ws, symlinks=True)
    outside.mkdir()
    subprocess.run([*GIT, "init", "-q", "-b", "main"], cwd=ws, check=True)
    (ws / ".gitignore").write_text("build/\n.flinkx-cache/\n")
    subprocess.run([*GIT, "add", "-A"], cwd=ws, check=True)
    subprocess.run([*GIT, "commit", "-q", "-m", "base"], cwd=ws, check=True)
    # (task tests, projects/*/tests/*.yaml, are read by `flinkx test` alone, which starts the JVM)
    files = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*")
                   if p.suffix in (".sql", ".yaml") and p.is_file() and ".git" not in p.parts and p.parent.name != "tests")
    return ws, pristine, outside, files


def explain_target(rel: str) -> str:
    parts = Path(rel).parts
    if parts[0] == "projects" and len(parts) > 3 and parts[2] == "tasks" and rel.endswith(".sql"):
        return f"{parts[1]}/{Path(*parts[3:]).with_suffix('').as_posix()}"
    return DEFAULT_TASK


def commands(target: str) -> list[tuple[str, ...]]:
    return [
        ("build", ".", "--check"),
        ("lint", ".", target),
        ("lint", ".", target, "--format", "sarif"),
        ("lint", ".", target, "--format", "json"),
        ("fix", ".", target, "--diff"),
        ("explain", ".", explain_target(target), "--format", "json"),
        ("graph", ".", "--format", "json"),
        ("impact", ".", "--base", "HEAD", "--format", "json", "--fail-on", "never"),
        ("lineage", ".", "dwd.dwd_refunds.refund_id", "--format", "json"),
    ]


def lsp_problems(ws: Path, target: str) -> list[str]:
    """What the language server publishes for the edited file, with its text as the buffer."""
    path = ws / target
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []  # an editor cannot open it as text either
    started = time.perf_counter()
    models = Models(use_cache=False)
    try:
        if target.endswith(".sql"):
            analysis = models.analyse_task(path, text)
            diags = analysis.diagnostics if analysis else []
        else:
            diags = models.yaml_diagnostics(path, text)
    except Exception as exc:  # noqa: BLE001 - the finding is that it raised
        return [f"language server on {target}: {type(exc).__name__}: {exc}"]
    found = oracle.diagnostic_problems(f"language server on {target}", diags)
    if time.perf_counter() - started > SECONDS_PER_RUN:
        found.append(f"language server on {target}: took {time.perf_counter() - started:.1f} s")
    return found


def _log(line: str) -> None:
    """FLINKX_FUZZ_LOG: a line per example and per command, for long runs."""
    if os.environ.get("FLINKX_FUZZ_LOG"):
        with open(os.environ["FLINKX_FUZZ_LOG"], "a", encoding="utf-8") as log:
            log.write(line + "\n")


def _forget_new_cache_entries(cache: Path, warm: set[Path]) -> None:
    for entry in sorted(cache.rglob("*"), reverse=True) if cache.exists() else []:
        if entry not in warm and entry.is_file():
            entry.unlink()


def restore(ws: Path, pristine: Path, touched: list[str]) -> None:
    for rel in sorted(set(touched), key=lambda r: r.count("/")):  # folders first: an edited file may be below one
        path, original = ws / rel, pristine / rel
        if path.is_symlink() or path.is_file():
            path.unlink()
        elif path.is_dir():
            shutil.rmtree(path)
        if original.is_file():
            shutil.copy2(original, path)
        elif original.is_dir():
            shutil.copytree(original, path, symlinks=True)


def check_example(cli, fuzz_ws, edits: list[strategies.Edit]) -> None:
    ws, pristine, outside, _ = fuzz_ws
    cache = ws / ".flinkx-cache"
    warm = set(cache.rglob("*")) if cache.exists() else set()
    touched: list[str] = []
    wrong: list[str] = []
    try:
        strategies.apply(ws, outside, edits, touched)
        before, outside_before = oracle.tree_state(ws), oracle.tree_state(outside, ())
        for args in commands(edits[0].target):
            outcome = run(cli, ws, *args)
            if os.environ.get("FLINKX_FUZZ_LOG"):
                _log(f"  {outcome.seconds:5.1f} s exit {outcome.exit_code} {' '.join(args)}")
            wrong += oracle.run_problems(outcome)
            if SECRET in outcome.stdout + outcome.stderr:
                wrong.append(f"flinkx {' '.join(args)}: printed what a link out of the workspace holds")
            _forget_new_cache_entries(cache, warm)
        wrong += lsp_problems(ws, edits[0].target)
        wrong += oracle.written_problems(before, oracle.tree_state(ws), "in the workspace")
        wrong += oracle.written_problems(outside_before, oracle.tree_state(outside, ()), "outside the workspace")
    finally:
        restore(ws, pristine, touched)
        _forget_new_cache_entries(cache, warm)
    assert not wrong, f"edits {[(e.kind, e.target, repr(e.detail)[:300]) for e in edits]}:\n" + "\n".join(wrong)


def _fuzz(cli, fuzz_ws, examples: int) -> None:
    ws, pristine, _, files = fuzz_ws
    for args in commands(files[0]) + commands(DEFAULT_TASK_FILE):  # warm every cache for every untouched file
        run(cli, ws, *args)

    @settings(max_examples=examples, deadline=None, database=None if CI_RUN else settings.default.database,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def check(data):
        started = time.perf_counter()
        check_example(cli, fuzz_ws, data.draw(strategies.mutations(pristine, files), label="edits"))
        _log(f"{time.time():.0f} example {time.perf_counter() - started:.1f} s")

    if CI_RUN:
        check = seed(SEED)(check)
    check()


def test_hostile_edits_of_the_example_workspace_give_findings_in_every_format(cli, fuzz_ws):
    _fuzz(cli, fuzz_ws, EXAMPLES)


SUBPROCESS_SAMPLE = [
    [strategies.Edit("tree", "projects/dwd/tasks/orders/enrich_orders.sql", ("self_link", ""))],
    [strategies.Edit("yaml_value", "projects/dim/functions/mask_phone.yaml", (b"",))],
    [strategies.Edit("bytes", "projects/ods/tables/products.yaml", (b"name: 0x" + b"f" * 5000 + b"\n",))],
]


@pytest.mark.parametrize("edits", SUBPROCESS_SAMPLE, ids=["self-link", "empty-function", "hex-name"])
def test_subprocess_sample(fuzz_ws, edits):
    """The real process (its own exit path, `os._exit` after the fast commands), for a few fixed examples."""
    ws, pristine, outside, _ = fuzz_ws
    touched: list[str] = []
    wrong = []
    try:
        strategies.apply(ws, outside, edits, touched)
        for args in (("build", "."), ("lint", ".", "--format", "sarif"), ("explain", ".", DEFAULT_TASK, "--format", "json")):
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=ws, capture_output=True, text=True,
                                  timeout=SECONDS_PER_RUN * 10)
            outcome = Run(args, done.returncode, done.stdout, done.stderr, time.perf_counter() - started)
            outcome.seconds = min(outcome.seconds, SECONDS_PER_RUN)  # a process's start is no hang; the timeout is the guard
            wrong += oracle.run_problems(outcome)
    finally:
        restore(ws, pristine, touched)
    assert not wrong, "\n".join(wrong)
