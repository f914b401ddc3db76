"""The benchmark's `flinkx test` figures: a workspace's test suite on warm drivers, seconds a case.

    python3 scripts/bench_test.py WORKSPACE [--rounds 3]

Loads the workspace's tests once and runs the whole suite `--rounds` times in this process, as
`flinkx test` runs it (testing/suite.py: one driver per core, cases in parallel), except that the
drivers are kept from one round to the next: the first round starts and warms them (the JVMs,
their MiniClusters, Flink's planner), the later ones are the suite "on a warm driver" of issue 46.
Prints one JSON line: the cases, the workers, every round's wall seconds, and the median of the
warm rounds divided by the cases. Exits 1 when a case does not pass, so no failure is ever timed.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from flinkx_build.pipeline import Session
from flinkx_build.testing import suite as suites
from flinkx_build.testing.pool import worker_count


class KeptRunners:
    """Runners opened on demand and handed back after each round instead of closed."""

    def __init__(self, open_one: Any) -> None:
        self._open_one, self._free, self._all, self._lock = open_one, [], [], threading.Lock()

    def __call__(self) -> "KeptRunners._Lease":
        with self._lock:
            runner = self._free.pop() if self._free else None
        if runner is None:
            runner = self._open_one()
            with self._lock:
                self._all.append(runner)
        return KeptRunners._Lease(self, runner)

    def close(self) -> None:
        for runner in self._all:
            runner.close()

    class _Lease:
        def __init__(self, pool: "KeptRunners", runner: Any) -> None:
            self.pool, self.runner = pool, runner

        def __enter__(self) -> Any:
            return self.runner

        def __exit__(self, *exc: object) -> None:
            with self.pool._lock:
                self.pool._free.append(self.runner)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the whole suite; the first warms up")
    args = parser.parse_args()
    session = Session.open(args.workspace.resolve())
    suite = suites.load_suite(session)
    if not suite.cases or any(d.is_error for d in suite.diagnostics):
        print("bench_test: no tests, or the test files have errors", file=sys.stderr)
        return 2
    version = session.workspace.config.flink_version
    runners = KeptRunners(lambda: suites.open_runner(version, 120.0))
    rounds = []
    try:
        for _ in range(max(args.rounds, 2)):
            began = time.perf_counter()
            results = suites.run_suite(suite, 120.0, opener=runners)
            rounds.append(time.perf_counter() - began)
            failed = [r.name for r in results if r.status != "pass"]
            if failed:
                print(f"bench_test: cases did not pass: {failed}", file=sys.stderr)
                return 1
    finally:
        runners.close()
    cases = len(suite.cases)
    print(json.dumps({"cases": cases, "workers": worker_count(cases, True),
                      "rounds": [round(r, 2) for r in rounds],
                      "warm_per_case": round(statistics.median(rounds[1:]) / cases, 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
