"""What `flinkx explain` and the language server's hover show: each table's effective definition in a
resolved task, and where every value came from (secret-looking option values masked)."""
from __future__ import annotations

from flinkx_build.credentials import mask_value
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import Origin
from flinkx_build.resolve.analysed import TableDef
from flinkx_build.resolve.effective import hint_options


def explain_data(rt: AnalysedTask) -> dict:
    """Every table the task uses, once per distinct effective definition *as Flink runs it*:
    an OPTIONS hint overrides options for its own query, so uses with different hints are
    listed apart, each with the hint's values and the hint's position."""
    tables = []
    for use in sorted(rt.tables.values(), key=lambda u: u.base_name):
        for definition, name in use.variants:
            groups: dict[tuple, tuple[dict[str, tuple[str, Origin]], set[int]]] = {}
            for rs in rt.statements:
                for bound, ref in zip(rs.tables, rs.parsed.tables):
                    if bound.definition is None or bound.key != use.table.key or bound.definition.signature() != definition.signature():
                        continue
                    overrides = hint_options(ref, rt.task.display_path)
                    key = tuple(sorted((k, v) for k, (v, _) in overrides.items()))
                    groups.setdefault(key, (overrides, set()))[1].add((rs.parsed.code_pos or rs.parsed.pos).line)
            for overrides, lines in groups.values() or [({}, set())]:
                entry = {"table": use.table.key, "emitted_as": name, "used_at_lines": sorted(lines), **_definition(definition)}
                for key, (value, origin) in overrides.items():
                    entry["options"][key] = {"value": mask_value(key, value), "from": origin.format()}
                tables.append(entry)
    return {"task": rt.task.key, "source": rt.task.display_path, "tables": tables}


def _definition(d: TableDef) -> dict:
    def origin(key: str):
        o = d.origins.get(key)
        return o.format() if o else None

    return {
        "columns": [
            {"name": c.name, "type": c.type, "expression": c.expression or None, "metadata": c.metadata_key, "from": c.origin.format() if c.origin else None}
            for c in d.columns
        ],
        "primary_key": {"columns": d.primary_key, "from": origin("primary_key") if d.primary_key else None},
        "index": {"columns": d.index, "from": origin("index") if d.index else None},
        "unique_index": {"columns": d.unique_index, "from": origin("unique_index") if d.unique_index else None},
        "watermark": {"column": d.watermark[0], "expression": d.watermark[1], "from": origin("watermark")} if d.watermark else None,
        "options": {k: {"value": mask_value(k, v), "from": origin(f"option:{k}")} for k, v in d.options.items()},
        "column_pruning": origin("column_pruning"),
    }


def render_text(data: dict) -> str:
    lines = [f"task {data['task']} ({data['source']})"]
    for t in data["tables"]:
        lines.append(f"\n{t['table']} as {t['emitted_as']} (statements at lines {', '.join(map(str, t['used_at_lines']))})")
        lines.append("  columns:")
        for c in t["columns"]:
            what = f"AS {c['expression']}" if c["expression"] else c["type"] + (" METADATA" if c["metadata"] else "")
            lines.append(f"    {c['name']:<20} {what:<30} <- {c['from']}")
        for key in ("primary_key", "index", "unique_index"):
            if t[key]["columns"]:
                lines.append(f"  {key.replace('_', ' ')}: ({', '.join(t[key]['columns'])}) <- {t[key]['from']}")
        if t["watermark"]:
            w = t["watermark"]
            lines.append(f"  watermark: FOR {w['column']} AS {w['expression']} <- {w['from']}")
        if t.get("column_pruning"):
            lines.append(f"  columns pruned to what the task uses <- {t['column_pruning']}")
        lines.append("  options:")
        for k, v in t["options"].items():
            lines.append(f"    {k} = {v['value']!r} <- {v['from']}")
    return "\n".join(lines)
