"""FX195 a statement that makes Flink load code; FX196 a SET of an engine setting outside the
allow-list (flinkx_build/engine_settings.py).

Both are refusals, not style: `flinkx test`, `validate` and `deploy` never hand such a statement
to Flink. Reporting them here, where lint, build --check, pre-commit and the editor all look,
gives every command the same verdict at the same position.
"""
from __future__ import annotations

from flinkx_build import engine_settings
from flinkx_build.checks import reserved_options
from flinkx_build.checks.check import Check
from flinkx_build.checks.check import CheckCode
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.workspace_model import Workspace
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.sets import is_flink_config


_CLUSTER_HINT = "catalogs, models and modules belong to the cluster's configuration, not to a task"
_CODE_HINT = ("declare the function in the project (its signature is what flinkx plans with) and name its jar "
              "with --jar on the deploy command line")


def engine_setting(ws: Workspace, project: str, rs_parsed: ParsedStatement) -> tuple[str, str, int, int] | None:
    """(key, value, line, col) of the Flink setting a statement SETs, or None."""
    if rs_parsed.kind == "flink_set" and rs_parsed.flink_set is not None:
        at = rs_parsed.code_pos or rs_parsed.pos
        return rs_parsed.flink_set[0], rs_parsed.flink_set[1], at.line, at.col
    option = rs_parsed.set_option
    if rs_parsed.kind == "set_option" and option is not None and is_flink_config(ws, project, option):
        return ".".join(option.parts), option.value, option.pos.line, option.pos.col
    return None


def check(ws: Workspace, analysed: AnalysedTask) -> list[Diagnostic]:
    task = analysed.task
    path = task.display_path
    out = []
    for rs in analysed.statements:
        parsed = rs.parsed
        if parsed.loads_code:
            at = parsed.code_pos or parsed.pos
            out.append(Diagnostic(path, at.line, at.col, "FX195",
                                  f"'{parsed.loads_code}' makes Flink load code that is not Flink's own: no flinkx command runs it",
                                  _CODE_HINT if "JAR" in parsed.loads_code or "PYTHON" in parsed.loads_code else _CLUSTER_HINT))
            continue
        setting = engine_setting(ws, task.project, parsed)
        if setting is not None:
            key, value, line, col = setting
            why = engine_settings.refusal(key, value)
            if why:
                out.append(Diagnostic(path, line, col, engine_settings.CODE, why, engine_settings.hint(key)))
    return out


CHECK = Check("engine settings", (CheckCode("FX195", "code-loading-statement"), CheckCode("FX196", "engine-setting-outside-allow-list")), check, page="error-codes.md", flink_finds_it=False)
# not semantic findings: every command that plans stops on them (and on a workspace writing flinkx's own options)
REFUSALS = frozenset(CHECK.code_names) | frozenset(reserved_options.CHECK.code_names)
