"""The forked base side of `flinkx impact` (`impact/forked_snapshot.py`), tested in a fresh interpreter.

`forked_cases.py` forks, on purpose and through the command. A fork is only safe in a
single-threaded process (the CLI is one; `can_take_forked` refuses otherwise), and a
long test run is not: an earlier test may leave a thread behind. So the cases run in a
pytest of their own, started here, whose only work is them.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.incremental.scheduler import can_fork

CASES = Path(__file__).with_name("forked_cases.py")
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not can_fork(), reason="needs the fork start method")
def test_forked_cases_in_a_fresh_interpreter(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "t"), str(CASES)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " failed" not in summary and " error" not in summary and " skipped" not in summary, summary
    assert int(summary.split(" passed")[0].split()[-1]) >= 20, summary  # every case ran
