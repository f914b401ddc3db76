"""forked.in_file_order: results in order, and a caller that stops early leaves no worker behind.

The workspace budget (FX179) stops a cold load part-way. With Executor.map every chunk was queued at once: the
workers went on parsing after lint had printed its finding and exited, holding its stdout open, and CI's
`subprocess.run` of the 62 MB attack waited 30 minutes for them.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from flinkx_build.incremental.scheduler import can_fork
from flinkx_build.incremental.scheduler import forked_pool
from flinkx_build.incremental.scheduler import in_file_order

pytestmark = pytest.mark.skipif(not can_fork(), reason="workers are forked")

_MARKS: Path | None = None


def _work(index: int) -> int:
    assert _MARKS is not None
    (_MARKS / str(index)).write_text(str(os.getpid()))
    time.sleep(0.01)
    return index * index


def test_results_come_in_order_and_an_early_stop_runs_only_the_chunks_already_queued(tmp_path: Path) -> None:
    global _MARKS
    _MARKS = tmp_path
    with forked_pool(2) as pool:
        assert list(in_file_order(pool, _work, 50, chunksize=3, window=4)) == [i * i for i in range(50)]
    for mark in tmp_path.iterdir():
        mark.unlink()

    with forked_pool(2) as pool:
        seen = []
        for result in in_file_order(pool, _work, 10_000, chunksize=4, window=4):
            seen.append(result)
            if len(seen) == 6:
                break
    # read once the pool is closed: a mark read while its chunk still ran could be empty (seen under load)
    workers = {int(m.read_text()) for m in tmp_path.iterdir()}
    # the first two chunks were read; at most the window's chunks (and one being queued) ran beyond them
    assert seen == [i * i for i in range(6)]
    assert len(list(tmp_path.iterdir())) <= (2 + 4 + 1) * 4
    for pid in workers:  # the pool's exit waited for its workers: none is left running
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
