"""What every `flinkx test` run shares, whichever driver runs it: the case configuration, how a task's SETs and
functions are decided, the fixture rows' wire format and the changes read back, and the case's messages.

The run itself is driver_run.py: each case goes to flinkx's planner driver on the target's own jars
(planner/java/src/flinkx/planner/TestJob.java), which runs it on a MiniCluster of its JVM with every table on
the fixture stand-in (planner/java/src/flinkx/standin/Fixture*.java). Nothing is simulated in Python: upserts,
retractions, late rows and window firing are Flink's.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field

from flinkx_build import engine_settings
from flinkx_build.compile.script import CompiledScript
from flinkx_build.testing.bind import Change
from flinkx_build.testing.bind import TableInfo
from flinkx_build.testing.values import convert
from flinkx_build.testing.values import to_wire
from flinkx_build.validate import standin
from flinkx_build.validate.contract import UdfStub

# Deterministic runs: one task slot, so rows keep the order they are given in; watermarks are
# emitted as soon as they advance (interval 0), so a late row is late on every machine; UTC, so
# TIMESTAMP_LTZ fixtures mean the same everywhere. A task's own SETs come later and win.
CASE_CONFIG = {
    "parallelism.default": "1",
    "pipeline.auto-watermark-interval": "0 ms",
    "table.local-time-zone": "UTC",
}


class NotRunnable(ValueError):
    """A statement a test does not run (it could reach outside the stand-ins)."""


@dataclass
class CaseRun:
    """What one case's job wrote: per meta table key, the changes in arrival order."""

    written: dict[str, list[Change]] = field(default_factory=dict)
    error: str = ""  # Flink's message when the job could not be planned or failed
    seconds: float = 0.0


def job_failure(chain: list[tuple[str, str]]) -> str | None:
    """For a job that failed while running: its root cause (the outer messages only say that
    the job failed), e.g. "NumberFormatException: For input string: 'o1'". `chain` is the Java
    exception chain, outermost first: (simple class name, message or "")."""
    if not any("Job execution failed" in message for _, message in chain):
        return None
    root_class, root_message = chain[-1]
    message = root_message.strip().splitlines()
    return f"the job failed: {root_class}: {message[0] if message else ''}"


def allowed_setting(sql: str) -> tuple[str, str] | None:
    """The (key, value) a test applies for a task's SET (None: not a key-value SET); NotRunnable
    for a key outside the engine settings' allow-list."""
    pair = engine_settings.set_pair(sql)
    if pair and (why := engine_settings.refusal(*pair)):
        raise NotRunnable(f"{engine_settings.CODE} flinkx test does not apply it: {why}")
    return pair


def timeout_message(seconds: float) -> str:
    """FX314: a case's job ran past --timeout (or the Flink process stopped answering) and was stopped."""
    return (f"FX314 the job did not finish within {seconds:g} s and was cancelled "
            "(a bounded test job normally ends in seconds; raise --timeout if this one needs longer)")


_CREATE_FUNCTION = re.compile(
    r"\s*CREATE\s+(?:TEMPORARY\s+)?(?:SYSTEM\s+)?FUNCTION\s+(?:IF\s+NOT\s+EXISTS\s+)?(`(?:[^`]|``)+`|[\w.]+)", re.IGNORECASE)


def created_function_name(sql: str) -> str:
    match = _CREATE_FUNCTION.match(sql)
    return match.group(1).strip("`").replace("``", "`") if match else ""


def declared_udf(script: CompiledScript, name: str) -> UdfStub:
    """The declaration a created function runs as a stand-in of; NotRunnable without one."""
    udf = standin.find_udf(tuple(script.udfs), name)
    if udf is None or udf.kind not in standin.UDF_CLASSES:
        raise NotRunnable(f"function '{name}' has no declared return type; it cannot run in a test")
    return udf


def _wire_rows(changes: list[Change], info: TableInfo) -> str:
    rows = []
    for change in changes:
        values = {}
        for name, value in change.values.items():
            col = info.columns[name.lower()]
            values[col.name] = to_wire(value, col.type)
        rows.append({"kind": change.kind, "values": values})
    return json.dumps(rows)


def _read_back(raw: list[dict], info: TableInfo) -> list[Change]:
    """What the sink received, typed by the sink's columns like the expectations are."""
    changes = []
    for row in raw:
        values = {}
        for name, value in row["values"].items():
            col = info.columns.get(name.lower())
            try:
                values[col.name if col else name] = convert(value, col.type) if col else value
            except ValueError:
                values[col.name if col else name] = value
        changes.append(Change(row["kind"], values, None))
    return changes
