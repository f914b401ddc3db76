"""What flinkx and its planner driver say to each other: JSON lines, pure Python (no JVM needed).

The driver (java/src/flinkx/planner/Driver.java) gets flinkx's allow-lists once (`policy`), then one
request per task (`request_for`), and answers each with Flink's exception chains per statement; here
they become `FlinkFinding`s in compiled-script coordinates (validate/findings.py trims Flink's messages).
"""
from __future__ import annotations

from typing import Any

from flinkx_build import engine_settings
from flinkx_build.validate import standin
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.validate.findings import created_name
from flinkx_build.validate.findings import is_comment_only
from flinkx_build.validate.findings import missing_objects
from flinkx_build.validate.findings import relocate_message
from flinkx_build.validate.findings import statement_sql
from flinkx_build.validate.findings import summarize
from flinkx_build.validate.findings import to_compiled


def policy() -> dict[str, Any]:
    """The facts the driver applies, sent from their one place (engine_settings.py, validate/standin.py)."""
    return {"policy": {
        "allowed_keys": sorted(engine_settings.ALLOWED_KEYS),
        "allowed_prefixes": list(engine_settings.ALLOWED_PREFIXES),
        "refused_parts": sorted(engine_settings.REFUSED_PARTS),
        "caps": dict(engine_settings.CAPS),
        "safe_catalog_types": sorted(engine_settings.SAFE_CATALOG_TYPES),
        "changelog_formats": sorted(standin.CHANGELOG_FORMATS),
        "append_only_sinks": sorted(standin.APPEND_ONLY_SINKS),
        "all_changes_sinks": sorted(standin.ALL_CHANGES_SINKS),
    }}


def request_for(script: ScriptToValidate, request_id: int, budget_ms: int) -> dict[str, Any]:
    return {
        "id": request_id,
        "budget_ms": budget_ms,
        "mode": script.mode,
        "statements": [{"sql": statement_sql(stmt), "skip": is_comment_only(stmt.text)} for stmt in script.statements],
        "udfs": [u.wire() for u in script.udfs],
    }


def findings_from(script: ScriptToValidate, answer: dict[str, Any]) -> list[FlinkFinding]:
    """The driver's answer as findings; an error answer is one finding at the script's start."""
    if answer.get("budget_exceeded"):
        seconds = int(answer.get("budget_ms", 0)) / 1000
        return [stopped(script, f"planning this task took longer than its budget of {seconds:g} s, so the planner "
                                "stopped it", budget=True)]
    if "error" in answer or not isinstance(answer.get("findings"), list):
        return [stopped(script, str(answer.get("error", "no answer from the planner")))]
    findings: list[FlinkFinding] = []
    failed_tables: set[str] = set()
    failed_functions: set[str] = set()
    for raw in answer["findings"]:
        index = int(raw.get("index", 0))
        if not 0 <= index < len(script.statements):
            continue
        stmt = script.statements[index]
        if "note" in raw:  # flinkx's own words (a statement set's shape, an undeclared function)
            if raw.get("udf"):
                failed_functions.add(raw["udf"])
            findings.append(FlinkFinding(script.key, stmt.line, stmt.col, raw["note"], raw.get("phase", "semantic"),
                                         index, {"udf": raw["udf"]} if raw.get("udf") else {}))
            continue
        message, position = summarize([str(m) for m in raw.get("messages", [])])
        line, col = stmt.line, stmt.col
        extra: dict[str, Any] = {"statement_kind": stmt.kind, "exception": raw.get("exception", "")}
        if raw.get("prefix"):  # a declared function's return type Flink does not know
            failed_functions.add(raw.get("udf", ""))
            findings.append(FlinkFinding(script.key, line, col, raw["prefix"] + message, "semantic", index,
                                         {"udf": raw.get("udf", "")}))
            continue
        if position is not None:
            line, col = to_compiled(stmt, *position)
            extra["statement_position"] = position
        finding = FlinkFinding(script.key, line, col, relocate_message(stmt, message), raw.get("phase", "semantic"),
                               index, extra)
        if finding.phase == "semantic":
            created = created_name(stmt.text)
            if created:
                failed_tables.add(created)
            tables, functions = missing_objects(finding.message)
            if (tables & failed_tables) or (functions & failed_functions):
                continue  # only repeats an earlier failed CREATE, which was reported
        findings.append(finding)
    return findings


def stopped(script: ScriptToValidate, why: str, budget: bool = False) -> FlinkFinding:
    """The one finding of a task the planner did not finish: over its budget (`budget`), or the driver stopped."""
    # at the task's own first statement (the generated DDL of its tables comes first in the script)
    index = next((i for i, s in enumerate(script.statements) if s.origin is not None), 0 if script.statements else -1)
    first = script.statements[index] if index >= 0 else None
    return FlinkFinding(script.key, first.line if first else 1, first.col if first else 1,
                        why if budget else f"validation stopped: {why}", "semantic", index,
                        extra={"budget": True} if budget else {"internal": True})


def did_not_finish(finding: FlinkFinding) -> bool:
    """Whether a finding says the planner did not finish its task (FX306), rather than judging it."""
    return bool(finding.extra.get("budget") or finding.extra.get("internal"))


# --- flinkx deploy's client (DeployClient.java) --------------------------------------------------

def compile_plan_request(statements: list[tuple[str, str]], udfs: list[dict[str, str]],
                         operations: dict[str, list[str]]) -> dict[str, Any]:
    """COMPILE PLAN JSON of a job planned with the stand-ins: statements as (kind, sql); `operations` are
    deploy/planning.py's lists of Flink operation classes to skip, execute, refuse or stand in for."""
    return {"deploy": "compile_plan", "statements": [{"kind": kind, "sql": sql} for kind, sql in statements],
            "udfs": udfs, "operations": operations}


def submit_request(steps: list[tuple[str, ...]], options: dict[str, str], job_parameters: dict[str, str],
                   remove_keys: list[str]) -> dict[str, Any]:
    """Submit a job: steps ("set", key, value) / ("execute", sql) / ("insert", sql) in order, then flinkx's
    `options` over the task's, `remove_keys` removed; the answer carries "job_id"."""
    wire = [{"set": [step[1], step[2]]} if step[0] == "set" else {step[0]: step[1]} for step in steps]
    return {"deploy": "submit", "steps": wire, "options": options, "job_parameters": job_parameters,
            "remove_keys": remove_keys}
