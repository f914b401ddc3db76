"""FX490 SET on a table the task never uses, FX491 hint that repeats a SET,
FX492 SET that is the only mention of a name that is a stream and an offline table.

A SET on an unused table does nothing (a leftover after a refactoring, or a typo
in the table name of a table that exists); an OPTIONS hint that sets what a SET
already set is noise. And when a name holds both a stream and an offline table
(seed 000), a task that only SETs it gives flinkx no way to tell which one is meant.
"""
from __future__ import annotations

from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.connectors import reserved_option
from flinkx_build.errors import Diagnostic
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.effective import hint_options
from flinkx_build.resolve.sets import is_flink_config
from flinkx_build.resolve.sets import split_target
from flinkx_build.workspace_model import Workspace


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    task = analysed.task
    path = task.display_path
    used = {tuple(key.split("@")[0].split(".", 1)) for key in analysed.reads | analysed.writes}
    referenced = {(ref.project or task.project, ref.name) for rs in analysed.statements for ref in rs.parsed.tables}
    typed = set()
    # a reference that did not resolve, or a statement that did not parse, may be the use: say nothing then
    # (its own finding is the one; "never used" would only follow from it)
    unbound = any(b.kind in ("error", "unloaded") for rs in analysed.statements for b in rs.tables) \
        or any(rs.parsed.syntax is not None for rs in analysed.statements)
    out = []
    sets: dict[tuple[str, str], dict[str, str]] = {}
    for rs in analysed.statements:
        option = rs.parsed.set_option
        if option is None or is_flink_config(ws, task.project, option):
            continue
        target = split_target(ws, task.project, option)
        if target is None:
            continue
        project, name, rest = target
        key = (project or task.project, name)
        if rest and rest[-1].lower() == "tabletype":
            typed.add(key)
            continue
        if len(rest) == 1 and option.value_kind == "literal":
            sets.setdefault(key, {})[rest[0]] = option.value
        if key in used or key in referenced or unbound:
            continue  # (a reference that did not resolve may be the use: say nothing then)
        candidates = ws.projects[key[0]].tables.get(name, []) if key[0] in ws.projects else []
        if len(candidates) > 1 and key not in typed:
            out.append(Diagnostic(path, option.pos.line, option.pos.col, "FX492",
                                  f"'{name}' is a stream and an offline table of project {key[0]}, and this SET is the task's only mention of it",
                                  f"say which: SET {name}.tableType = '...', or remove the SET"))
        else:
            out.append(Diagnostic(path, option.pos.line, option.pos.col, "FX490", f"SET on {key[0]}.{name}, which the task never reads or writes",
                                  "remove it, or use the table"))
    for rs in analysed.statements:
        for ref in rs.parsed.tables:
            table_sets = sets.get((ref.project or task.project, ref.name), {})
            for option_key, (value, origin) in hint_options(ref, path).items():
                if table_sets.get(option_key) == value and not reserved_option(option_key):  # FX197 says it (reserved_options.py)
                    out.append(Diagnostic(path, origin.line, origin.col, "FX491", f"the OPTIONS hint sets '{option_key}' to '{value}', which the task's SET already does",
                                          "drop it from the hint (or the SET, if only this query needs it)"))
    return out


CHECK = Check("SET and hint settings", (CheckCode("FX490", "unused-set"), CheckCode("FX491", "redundant-hint"), CheckCode("FX492", "ambiguous-set")), check)
