"""Cases in parallel (testing/pool.py): one runner per worker, runs back in the cases' order, errors raised."""
from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest

from flinkx_build.testing.pool import run_cases
from flinkx_build.testing.pool import worker_count


class FakeRunner:
    """A runner whose runs wait until `together` runs are in flight at once (proof of parallelism)."""

    def __init__(self, opened: list, together: threading.Barrier | None, fail_on: str = "") -> None:
        self.opened, self.together, self.fail_on = opened, together, fail_on
        self.closed = False
        opened.append(self)

    def run(self, case, script):
        if case.name == self.fail_on:
            raise RuntimeError("the JVM died")
        if self.together is not None:
            self.together.wait(timeout=30)  # a hang guard: a serial run would break the barrier, not hang
        return (case.name, script, threading.current_thread().name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.closed = True


def _jobs(count: int) -> list:
    return [(SimpleNamespace(task="p/t", name=f"case {n}"), f"script {n}") for n in range(count)]


def test_two_workers_run_two_cases_at_once_and_return_them_in_order():
    opened: list[FakeRunner] = []
    together = threading.Barrier(2)
    runs = run_cases(_jobs(6), lambda: FakeRunner(opened, together), 2, lambda _: None)
    assert [(name, script) for name, script, _ in runs] == [(f"case {n}", f"script {n}") for n in range(6)]
    assert len({thread for _, _, thread in runs}) == 2  # both workers ran cases
    assert len(opened) == 2 and all(runner.closed for runner in opened)


def test_one_worker_runs_in_the_callers_thread():
    opened: list[FakeRunner] = []
    runs = run_cases(_jobs(3), lambda: FakeRunner(opened, None), 1, lambda _: None)
    assert {thread for _, _, thread in runs} == {threading.current_thread().name}
    assert len(opened) == 1


def test_a_runner_error_is_raised_and_every_runner_closed():
    opened: list[FakeRunner] = []
    with pytest.raises(RuntimeError, match="the JVM died"):
        run_cases(_jobs(5), lambda: FakeRunner(opened, None, fail_on="case 2"), 2, lambda _: None)
    assert opened and all(runner.closed for runner in opened)


def test_one_worker_per_core_never_more_than_cases(monkeypatch):
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert worker_count(18, parallel=True) == 2
    assert worker_count(1, parallel=True) == 1
    assert worker_count(18, parallel=False) == 1


def test_past_the_deadline_no_case_starts_and_the_rest_are_left_in_order(monkeypatch):
    opened: list[FakeRunner] = []
    assert run_cases(_jobs(4), lambda: FakeRunner(opened, None), 2, lambda _: None, deadline=0.0) == [None] * 4
    assert opened == []  # no driver started for nothing
    clock = [0.0]

    class Slow(FakeRunner):
        def run(self, case, script):
            clock[0] += 1  # each case takes a second of the fake clock
            return super().run(case, script)

    monkeypatch.setattr("flinkx_build.testing.pool.time.monotonic", lambda: clock[0])
    runs = run_cases(_jobs(5), lambda: Slow(opened, None), 1, lambda _: None, deadline=1.5)
    assert [run is not None for run in runs] == [True, True, False, False, False]
