"""The caches of issue 13 change nothing a user sees: replayed runs print the same, any changed input reruns.

Real processes on copies of the example workspace and of a generated one
(scripts/benchgen.py); no mocks.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from flinkx_build.cache_version import versioned_cache_root

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "example-workspace"


def flinkx(ws: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=ws, capture_output=True, text=True)


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    target = tmp_path / "ws"
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return target


def _summary(result: subprocess.CompletedProcess[str]) -> str:
    return result.stderr.strip().splitlines()[-1].rsplit(" (", 1)[0]  # without the elapsed time


def test_unchanged_build_is_replayed_without_writing(ws: Path) -> None:
    first = flinkx(ws, "build", ".")
    assert first.returncode == 0, first.stderr
    compiled = ws / "build/dwd/orders/enrich_orders.sql"
    before = compiled.stat().st_mtime_ns, (ws / "build/manifest.json").read_text()
    second = flinkx(ws, "-v", "build", ".")
    assert second.returncode == 0, second.stderr
    assert first.stdout == second.stdout and _summary(first) == _summary(second)
    assert f"unchanged {ws / 'build/dwd/orders/enrich_orders.sql'}" in second.stderr
    assert (compiled.stat().st_mtime_ns, (ws / "build/manifest.json").read_text()) == before


def test_a_changed_meta_table_rebuilds(ws: Path) -> None:
    assert flinkx(ws, "build", ".").returncode == 0
    table = ws / "projects/dim/tables/dim_user.yaml"
    table.write_text(table.read_text().replace('lookup.max-retries: "3"', 'lookup.max-retries: "7"'))
    assert flinkx(ws, "build", ".").returncode == 0
    assert "'lookup.max-retries' = '7'" in (ws / "build/dwd/orders/enrich_orders.sql").read_text()


def test_an_edited_or_deleted_output_is_rebuilt(ws: Path) -> None:
    assert flinkx(ws, "build", ".").returncode == 0
    compiled = ws / "build/dws/order_stats_1m.sql"
    good = compiled.read_text()
    compiled.write_text("-- edited by hand\n")
    (ws / "build/dim/sync_dim_user.sql").unlink()
    assert flinkx(ws, "build", ".").returncode == 0
    assert compiled.read_text() == good
    assert (ws / "build/dim/sync_dim_user.sql").is_file()
    same_size = "X" + good[1:]  # the replay compares size, mtime and inode: a same-size edit is seen too
    compiled.write_text(same_size)
    assert flinkx(ws, "build", ".").returncode == 0
    assert compiled.read_text() == good


def test_tampered_memo_entries_are_ignored(ws: Path) -> None:
    first = flinkx(ws, "build", ".")
    entries = list((versioned_cache_root(ws, ".flinkx-cache") / "runs").rglob("*.json"))
    assert entries
    for entry in entries:
        entry.write_text(entry.read_text().replace('"tasks":', '"tasks":1000+'))
    (ws / "build/manifest.json").unlink()
    again = flinkx(ws, "build", ".")
    assert again.returncode == 0 and _summary(again) == _summary(first)
    assert (ws / "build/manifest.json").is_file()


def test_lint_rechecks_the_tasks_that_read_a_changed_meta_table(ws: Path) -> None:
    assert flinkx(ws, "lint", ".").returncode == 0
    table = ws / "projects/dim/tables/dim_user.yaml"
    clean = table.read_text()
    table.write_text(clean.replace("  - {name: city, type: STRING}\n", ""))
    broken = flinkx(ws, "lint", ".")
    assert broken.returncode == 1
    assert "projects/dwd/tasks/orders/enrich_orders.sql:" in broken.stdout and "city" in broken.stdout
    assert flinkx(ws, "lint", ".").stdout == broken.stdout  # replayed: the same findings
    table.write_text(clean)
    assert flinkx(ws, "lint", ".").returncode == 0


def test_cold_parallel_lint_finds_what_the_cached_lint_finds(tmp_path: Path) -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    from benchgen import generate

    ws = generate(tmp_path / "ws", 22)  # over the threshold: the rule pass runs in worker processes
    for task in sorted(ws.glob("projects/dwd/tasks/orders/enrich_orders_c*.sql")):
        task.write_text(task.read_text().replace("  u.city,\n", "  u.city AS value,\n"))
    cold = flinkx(ws, "lint", ".")
    assert cold.returncode == 1 and "FX01" in cold.stdout
    shutil.rmtree(versioned_cache_root(ws, ".flinkx-cache") / "runs")  # keep the per-file rule cache, drop the whole-run memo
    warm = flinkx(ws, "lint", ".")
    assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    one = flinkx(ws, "lint", "projects/dwd/tasks/orders/enrich_orders_c001.sql")
    assert one.stdout.strip() and all(line in cold.stdout for line in one.stdout.splitlines())
