"""FX472 source.parallelism without DISTRIBUTEBY, FX473 DISTRIBUTEBY on a field the query does not output.

Seed 003 (Huawei MRS): `source.parallelism` turns the forward connection after the
source into a rebalance, so rows of one key can overtake each other; "when data
disorder is not allowed, enable the DISTRIBUTEBY feature together with this feature".
A query that groups, joins or windows shuffles by key anyway, so only a plain
pipeline (filter, projection) gets the warning. DISTRIBUTEBY names output fields
(`DISTRIBUTEBY('id1')` for `id AS id1`), so a name no query of the statement outputs
is an error.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.engines import engine as engine_named
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.semantic.functions import AGGREGATES
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    if not engine_named(ws.config.engine).mrs_hints:
        return []  # FX170 already says the hints need the mrs engine
    path = analysed.task.display_path
    out = []
    for rs in analysed.statements:
        distribute = [(hint, item) for hint in rs.parsed.select_hints for item in hint.items if item.lower == "distributeby"]
        for hint, item in distribute:
            for field in item.args:
                name = field.strip().strip("'`")
                if rs.select_names and name.lower() not in rs.select_names:
                    out.append(Diagnostic(path, hint.pos.line, hint.pos.col, "FX473", f"DISTRIBUTEBY('{name}') names no field the query outputs",
                                          did_you_mean(name, rs.select_names) or "name an output field (an alias if the SELECT renames it)"))
        if distribute or rs.parsed.query is None or rs.parsed.query.root < 0 or _shuffles(rs.parsed.query):
            continue
        for ref, bound in rs.table_refs():
            d = bound.definition
            if d is None or ref.role == "write" or "source.parallelism" not in d.options:
                continue
            origin = d.origins.get("option:source.parallelism")
            line, col = (origin.line, origin.col) if origin and origin.path == path else (ref.pos.line, ref.pos.col)
            out.append(Diagnostic(path, line, col, "FX472", f"{bound.key} is read with source.parallelism {d.options['source.parallelism']} and no DISTRIBUTEBY: rows of one key may be reordered",
                                  "add /*+ DISTRIBUTEBY('<key>') */ to the SELECT (seed 003), or drop source.parallelism"))
    return out


def _shuffles(sq) -> bool:
    """Does any query of the statement group, join or window (a keyed exchange already)?"""
    for query in sq.queries:
        if query.group_by or len(query.sources) > 1 or any(s.kind == "window" for s in query.sources):
            return True
        if any(n.kind == "call" and n.text in AGGREGATES for item in query.items for n in item.expr.walk()):
            return True
    return False


CHECK = Check("MRS hints", (CheckCode("FX472", "parallelism-without-distributeby"), CheckCode("FX473", "distributeby-field")), check)
