"""FX127 syntax the target Flink version does not have (ON CONFLICT), FX497 upsert key that differs
from the sink's primary key in an INSERT without ON CONFLICT, where the target requires one.

What it finds, judged by the workspace's `flink_version`:

* FX127: `INSERT ... ON CONFLICT DO ...` (FLIP-558) for a target whose parser has no CONFLICT
  keyword (1.20 stops at `ON`).
* FX497: on a target whose `table.exec.sink.require-on-conflict` defaults to true (2.3) and the
  task does not SET it to false, an INSERT of an updating query into a sink with a primary key,
  without ON CONFLICT, whose upsert key is not within the primary key. Flink 2.3 refuses to plan
  it ("The query has an upsert key that differs from the primary key of the sink table"); 1.20
  plans it, so 1.20 is quiet. The upsert key is derived for a GROUP BY over one table (the
  written grouping columns, a CAST of one included); other updating shapes are left to the
  planner rather than guessed.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import FlinkFacts
from flinkx_build.flink_data import facts_or_default
from flinkx_build.flink_data import supported_versions
from flinkx_build.flink_data import facts_for
from flinkx_build.frontend import query_ir as ir
from flinkx_build.workspace_model import Workspace
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.sets import is_flink_config
from flinkx_build.semantic.changelog import UPDATE

REQUIRE_OPTION = "table.exec.sink.require-on-conflict"


def has_on_conflict(facts: FlinkFacts) -> bool:
    """Whether the version's parser knows ON CONFLICT (its CONFLICT keyword)."""
    return "CONFLICT" in facts.keywords


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    facts = facts_or_default(ws.config.flink_version)
    path = analysed.task.display_path
    out = []
    for rs in analysed.statements:
        at = rs.parsed.on_conflict_pos
        if rs.parsed.on_conflict and at is not None and not has_on_conflict(facts):
            others = [v for v in supported_versions() if has_on_conflict(facts_for(v))]
            out.append(Diagnostic(path, at.line, at.col, "FX127",
                                  f"{rs.parsed.on_conflict} is not Flink {facts.version} syntax (Flink {', '.join(others)} has it)",
                                  f"remove it for Flink {facts.version}: its sink upserts by the primary key"))
    if not requires_on_conflict(facts, ws, analysed):
        return out
    for sm in analysed.statements:
        if sm.kind != "insert" or sm.changelog != UPDATE or sm.sink_pos is None or sm.sink_columns is None:
            continue
        if sm.parsed.on_conflict or sm.parsed.query is None:
            continue
        written = sm.sink_table()
        if written is None or written.definition is None or not written.definition.primary_key:
            continue
        primary_key = {c.lower() for c in written.definition.primary_key}
        key = upsert_key(sm.parsed.query, [name for name, _ in sm.sink_columns])
        if key is None or (key and key <= primary_key):
            continue
        shown = ", ".join(sorted(key)) if key else "none"
        out.append(Diagnostic(path, sm.sink_pos.line, sm.sink_pos.col, "FX497",
                              f"the query's upsert key ({shown}) differs from the primary key of {sm.sink} "
                              f"({', '.join(written.definition.primary_key)}): Flink {facts.version} refuses it without ON CONFLICT",
                              "group by the primary key, or add ON CONFLICT DO DEDUPLICATE after the query "
                              f"(or SET '{REQUIRE_OPTION}' = 'false' to keep the old behaviour)"))
    return out


def requires_on_conflict(facts: FlinkFacts, ws: Workspace, analysed: AnalysedTask) -> bool:
    """The target reads the option with default true, and the task does not turn it off."""
    option = facts.options.get(REQUIRE_OPTION)
    if option is None or (option.default or "").lower() != "true":
        return False
    for rs in analysed.statements:
        stmt = rs.parsed
        if stmt.flink_set is not None and stmt.flink_set[0] == REQUIRE_OPTION:
            return stmt.flink_set[1].strip().lower() != "false"
        so = stmt.set_option
        if so is not None and is_flink_config(ws, analysed.task.project, so) and ".".join(so.parts) == REQUIRE_OPTION:
            return so.value.strip().lower() != "false"
    return True


def _column(expr: ir.Expr) -> str | None:
    """The column a grouping key or output is (through a CAST), lower-cased; None for anything else."""
    while expr.kind == ir.CALL and expr.text in ("CAST", "TRY_CAST") and len(expr.args) == 1:
        expr = expr.args[0]
    return expr.parts[-1].lower() if expr.kind == ir.COLUMN and expr.parts else None


def upsert_key(query: ir.StatementQuery, sink_names: list[str]) -> set[str] | None:
    """The sink columns that carry the query's upsert key: for a GROUP BY over one table, the written
    grouping columns (an empty set when a grouping column is not written: the rows have no key);
    None for a shape whose key is not derived here."""
    if not 0 <= query.root < len(query.queries):
        return None
    root = query.queries[query.root]
    if root.kind != "select" or not root.group_by or root.distinct or len(root.sources) != 1 or root.sources[0].kind != "table":
        return None
    group = {_column(e) for e in root.group_by}
    if None in group or len(root.items) != len(sink_names) or any(i.wildcard for i in root.items):
        return None
    key: set[str] = set()
    written: set[str] = set()
    for item, sink_name in zip(root.items, sink_names):
        name = _column(item.expr)
        if name in group:
            key.add(sink_name.lower())
            written.add(name)
    return key if written == group else set()


CHECK = Check("ON CONFLICT and the target", (CheckCode("FX127", "syntax-not-in-target"), CheckCode("FX497", "on-conflict-required")), check)
