"""Hover: a table's effective definition as `flinkx explain` shows it; a function's YAML facts."""
from __future__ import annotations

from pathlib import Path

from flinkx_build.credentials import mask_value
from flinkx_build.load.workspace import display_path
from flinkx_build.lsp.analysis import TaskAnalysis
from flinkx_build.lsp.goto import definition
from flinkx_build.lsp.locate import ColumnTarget
from flinkx_build.lsp.locate import FunctionTarget
from flinkx_build.lsp.locate import TableTarget
from flinkx_build.lsp.locate import Target
from flinkx_build.lsp.locate import VariableTarget
from flinkx_build.resolve.explain import explain_data
from flinkx_build.resolve.explain import render_text


def hover_markdown(analysis: TaskAnalysis, target: Target) -> str | None:
    if isinstance(target, TableTarget):
        return _table(analysis, target)
    if isinstance(target, FunctionTarget):
        return _function(analysis, target)
    if isinstance(target, VariableTarget):
        return _variable(analysis, target)
    if isinstance(target, ColumnTarget):
        return _column(target)
    return None


def _table(analysis: TaskAnalysis, target: TableTarget) -> str | None:
    bound = target.bound
    if bound.kind in ("local", "cte"):
        return f"`{bound.key}`: {'a table defined in this task' if bound.kind == 'local' else 'a WITH query of this statement'}"
    if bound.kind != "meta" or bound.definition is None:
        return None
    use = analysis.resolved.tables[bound.key]
    signature = bound.definition.signature()
    emitted = next((name for definition, name in use.variants if definition.signature() == signature), None)
    # explain's own data, narrowed to this reference's definition: hover and explain cannot disagree
    data = explain_data(analysis.resolved)
    entries = [t for t in data["tables"] if t["table"] == bound.key and t["emitted_as"] == emitted]
    if not entries:
        return None
    table = use.table
    title = f"**{bound.key}** ({table.type} {table.kind} table, {table.loc.path}:{table.loc.line})"
    body = render_text({**data, "tables": entries[:1]})
    description = f"\n\n{table.description.strip()}" if table.description.strip() else ""
    return f"{title}{description}\n\n```text\n{body}\n```"


def _function(analysis: TaskAnalysis, target: FunctionTarget) -> str | None:
    if target.bound.kind == "builtin":
        return f"`{target.name.upper()}`: a Flink built-in function"
    use = analysis.resolved.functions.get(target.bound.key) if target.bound.kind == "project" else None
    if use is None:
        return None
    fn = use.function
    return (
        f"**{fn.key}** ({fn.kind} {fn.language} function, {fn.loc.path}:{fn.loc.line})\n\n"
        f"class `{fn.class_name}`, returns `{fn.returns or '?'}`, resource `{fn.resource or '-'}`; "
        f"compiled as `{use.emitted_name}`"
    )


def _variable(analysis: TaskAnalysis, target: VariableTarget) -> str | None:
    if target.name not in analysis.context:
        return None
    where = definition(analysis, target)
    source = f" ({display_path(Path(where.path))}:{where.line})" if where else ""
    if target.name in analysis.session.workspace.config.secrets:
        return f"`${{{target.name}}}`: a secret, filled in at deploy time{source}"
    return f"`${{{target.name}}}` = `{mask_value(target.name, analysis.context[target.name])}`{source}"


def _column(target: ColumnTarget) -> str:
    column = target.column
    what = f"AS {column.expression}" if column.expression else column.type + (" METADATA" if column.metadata_key is not None else "")
    origin = f" <- {column.origin.format()}" if column.origin else ""
    comment = f"\n\n{column.comment}" if column.comment else ""
    return f"`{column.name}` `{what}` of **{target.table.table.key}**{origin}{comment}"
