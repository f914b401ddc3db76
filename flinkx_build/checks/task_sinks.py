"""FX474 two INSERTs into one table in a task, not in one statement set.

What it finds: a task that writes one table with two INSERTs of which at least one is outside a
`BEGIN STATEMENT SET; ... END;`. Each INSERT outside a statement set is a job of its own when the
script runs, so the task deploys as two jobs writing the same table, unordered, with two sets of
state (issue 44 case 4). Flink accepts the script, so it is a warning; inside one statement set the
INSERTs are one job and nothing is reported.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    if not engine_named(ws.config.engine).insert_is_a_job:
        return []  # the engine runs a task's script as one job (engines.py)
    path = analysed.task.display_path
    inserts: dict[str, list[tuple[int, int, bool]]] = {}  # sink -> (line, col, in a statement set) of each INSERT
    for sm in analysed.statements:
        # (an INSERT of VALUES is a bounded one-shot write, as documentation pages make rows: not a job that runs on)
        if sm.kind == "insert" and sm.sink and sm.sink_pos is not None and any(r.role == "read" for r in sm.parsed.tables):
            inserts.setdefault(sm.sink, []).append((sm.sink_pos.line, sm.sink_pos.col, sm.in_statement_set))
    out = []
    for sink, places in inserts.items():
        if len(places) < 2 or all(in_set for _, _, in_set in places):
            continue  # one INSERT, or all in statement sets (a task has one: one job)
        (first, _, _), (line, col, _) = places[0], places[1]
        more = f" (and line{'s' if len(places) > 3 else ''} {', '.join(str(p[0]) for p in places[2:])})" if len(places) > 2 else ""
        out.append(Diagnostic(path, line, col, "FX474",
                              f"a second INSERT INTO {sink}{more} (the first is on line {first}), not in one statement set "
                              f"with it: each is a job of its own, so {len(places)} jobs write {sink}",
                              "put the INSERTs in one BEGIN STATEMENT SET; ... END; (one job), or UNION ALL their queries"))
    return out


CHECK = Check("a task's sinks", (CheckCode("FX474", "two-jobs-one-sink"),), check, flink_finds_it=False)
