"""Runs a workspace's timeline tests many times on one driver and checks that every run reports the same.

    python scripts/timeline_soak.py example-workspace --runs 200

Each repetition is a whole case run (a new job on the driver's MiniCluster); what is compared is the case's
report without its timing: PASS/FAIL, the verdicts and the late rows per operator. Exit 1 when two runs of a
case differ (both reports are printed), else 0 with one line of counts. Meant for a loaded machine: run it
with `nice`d competing work beside it (issue 46's "no flakiness" check); it asserts nothing about speed.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from flinkx_build.pipeline import Session
from flinkx_build.testing.report import human
from flinkx_build.testing.suite import load_suite
from flinkx_build.testing.suite import run_suite


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    session = Session.open(args.workspace.resolve())
    suite = load_suite(session)
    suite.cases = [case for case in suite.cases if case.timeline is not None]
    if not suite.cases or any(d.is_error for d in suite.diagnostics):
        print("no timeline tests, or the test files have errors", file=sys.stderr)
        return 2
    repeated = dataclasses.replace(suite, cases=suite.cases * args.runs)
    began = time.perf_counter()
    results = run_suite(repeated, args.timeout)
    first: dict[str, str] = {}
    differing = 0
    for result in results:
        text = human([dataclasses.replace(result, seconds=0.0)], 0.0)
        seen = first.setdefault(result.name, text)
        if text != seen:
            differing += 1
            print(f"run differs for {result.name}:\n--- first\n{seen}\n--- this\n{text}")
    statuses = {name: text.split()[0] for name, text in first.items()}
    print(f"{len(results)} case runs ({len(suite.cases)} timeline cases x {args.runs}) in "
          f"{time.perf_counter() - began:.0f} s: {differing} differing from the first run; first verdicts: {statuses}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
