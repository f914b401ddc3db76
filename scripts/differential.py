"""The differential harness: lint against the real Flink planner on single-edit mutations.

    python scripts/differential.py [--seed N] [--per-kind K] [--planner] [--misses]

Mutates copies of example-workspace/, tests/fixtures/seed000, the cookbook corpus and the typed
workspace of tests/semantic (held out: no check was written against it) (one edit
per mutant, `tests/differential/mutations.py`), labels each mutant with the embedded Flink 1.20
planner (one JVM for all), runs lint on it and prints recall, precision, false-alarm rate and
location accuracy per mutation kind, for the tuned sites, the held-out sites and both.
`--planner`: also lint with the planner (FX301) when this checkout's lint has that option.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flinkx_build.planner.session import open_planner  # noqa: E402
from flinkx_build.planner.session import planner_problem  # noqa: E402
from flinkx_build.targets import DEFAULT_VERSION  # noqa: E402
from tests.differential import harness  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=28, help="the tuned/held-out split and the sample")
    parser.add_argument("--per-kind", type=int, default=None, help="at most this many mutants of each kind")
    parser.add_argument("--planner", action="store_true", help="also lint with the planner, if lint has it")
    parser.add_argument("--kinds", default="", help="only these mutation kinds (comma-separated prefixes)")
    parser.add_argument("--misses", action="store_true", help="list every miss and false alarm")
    parser.add_argument("--messages", type=Path, default=None,
                        help="write the planner's message of every mutant it rejects, with counts, to this JSON file "
                             "(tests/differential/planner_messages.json: what FX301's translation must cover)")
    args = parser.parse_args()
    reason = planner_problem(DEFAULT_VERSION, fetch=True)
    if reason is not None:
        print(f"differential: needs the Flink planner: {reason}", file=sys.stderr)
        return 2
    if args.planner and harness.planner_flag() is None:
        print("differential: this lint has no planner option yet: lint alone is scored", file=sys.stderr)
        args.planner = False
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="flinkx-differential-") as tmp:
        root = Path(tmp)
        workspaces = harness.prepare_workspaces(root)
        with open_planner(DEFAULT_VERSION, fetch=True) as flink:
            planner = harness.Planner(flink)
            mutants = harness.select(harness.generate(workspaces, planner), args.seed, args.per_kind)
            if args.kinds:
                mutants = [(ws, m) for ws, m in mutants if m.kind.startswith(tuple(args.kinds.split(",")))]
            verdicts = [harness.judge(ws, m, planner, args.seed, args.planner) for ws, m in mutants]
    for split in ("tuned", "held-out", "unseen", "all"):
        print(f"\n### lint alone, {split} sites (seed {args.seed})\n")
        print(harness.table(verdicts, split))
    if args.planner:  # the same mutants, scored on what lint says with the target's planner (FX301) on
        with_planner = [dataclasses.replace(v, lint=v.planner_lint or []) for v in verdicts]
        for split in ("held-out", "unseen", "all"):
            print(f"\n### lint with the planner, {split} sites (seed {args.seed})\n")
            print(harness.table(with_planner, split))
    if args.messages is not None:
        counts = Counter(v.planner_message for v in verdicts if v.planner == "rejected")
        args.messages.write_text(json.dumps({"generated_by": "scripts/differential.py --messages", "seed": args.seed,
                                             "messages": dict(counts.most_common())}, indent=1) + "\n", encoding="utf-8")
    if args.misses:
        overall = harness.score(verdicts)
        for title, rows in (("misses", overall.misses), ("false alarms", overall.alarms)):
            print(f"\n{title}:")
            for v in rows:
                print(f"  {v.mutation.kind} {v.mutation.task}:{v.mutation.line} ({v.mutation.note}): {v.planner_message[:150]}"
                      + (f" | lint: {v.lint[0].format()}" if v.lint else ""))
    print(f"\n{len(verdicts)} mutants in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
