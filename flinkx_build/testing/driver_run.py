"""Running test cases on the target's own Flink: flinkx's planner driver on that version's jars.

Every `flinkx test` case runs here, on every target: the statements decided in Python (run.py: SETs against
the allow-list, functions as stand-ins with the results the test gives, what a test does not run named), the
job in the driver's JVM (planner/java/src/flinkx/planner/TestJob.java) on a MiniCluster of its own (everything
it opens on 127.0.0.1), every table on flinkx's one stand-in connector (planner/java/src/flinkx/standin/
Fixture*.java, Source V2 / Sink V2, which 1.20 and 2.x share). What comes back is read by run.py's code and
judged by compare.py.

The driver is a child process of this run (never the warm lint service: a test's jobs would hold it
for as long as they run). Every answer has a deadline: a driver that stops answering is stopped, the
case fails with FX314, and the next case starts a new driver.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from dataclasses import field
from types import TracebackType
from typing import Any
from typing import Callable

from flinkx_build.compile.script import CompiledScript
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner.process import Planner
from flinkx_build.planner.process import PlannerStopped
from flinkx_build.planner.process import PlannerTimeout
from flinkx_build.planner.session import open_planner
from flinkx_build.testing.bind import Change
from flinkx_build.testing.bind import TableInfo
from flinkx_build.testing.bind import TestCase
from flinkx_build.testing.run import CASE_CONFIG
from flinkx_build.testing.run import CaseRun
from flinkx_build.testing.run import NotRunnable
from flinkx_build.testing.run import _read_back
from flinkx_build.testing.run import _wire_rows
from flinkx_build.testing.run import allowed_setting
from flinkx_build.testing.run import created_function_name
from flinkx_build.testing.run import declared_udf
from flinkx_build.testing.run import job_failure
from flinkx_build.testing.run import timeout_message
from flinkx_build.testing.timeline import EVERY_SOURCE
from flinkx_build.validate.findings import statement_sql
from flinkx_build.validate.findings import summarize

# beyond --timeout, what one answer may take: a new TableEnvironment, planning, the MiniCluster's start
# and the cancel of a job past its time (the first case on a busy machine: about 20 s)
ANSWER_GRACE = 180.0

PlannerOpener = Callable[[str], Planner]


def _child_planner(flink_version: str) -> Planner:
    return open_planner(flink_version, fetch=True, warm=False)


def job_steps(case: TestCase, script: CompiledScript) -> list[dict[str, Any]]:
    """The compiled script as the driver runs it, decided with run.py's helpers; NotRunnable
    for what a test refuses before anything runs (a SET outside the allow-list, an undeclared function)."""
    steps: list[dict[str, Any]] = []
    for stmt in script.statements:
        sql = statement_sql(stmt)
        if stmt.kind == "set":
            pair = allowed_setting(sql)
            if pair:
                steps.append({"set": list(pair)})
        elif stmt.kind == "insert":
            steps.append({"insert": sql})
        elif stmt.kind == "create_table":
            steps.append({"table": sql})
        elif stmt.kind == "create_function":
            name = created_function_name(sql)
            udf = declared_udf(script, name)
            steps.append({"function": {**udf.wire(), "name": name, "calls": case.functions.get(name.lower())}})
        elif stmt.kind in ("begin_statement_set", "end", "select"):
            continue  # all INSERTs run as one job; a bare query has no sink to check
        else:
            steps.append({"other": sql})
    return steps


def case_request(case: TestCase, script: CompiledScript, prefix: str, timeout: float) -> dict[str, Any]:
    emitted = {name: info for info in case.tables.values() for name in info.emitted}
    rows = {bound.table.key: _wire_rows(bound.changes, bound.table) for bound in case.given}
    request: dict[str, Any] = {
        "mode": case.mode, "prefix": prefix, "config": dict(CASE_CONFIG), "timeout_ms": int(timeout * 1000),
        "steps": job_steps(case, script),
        "tables": {name: rows.get(info.key, "[]") for name, info in emitted.items()},
    }
    if case.timeline is not None:
        request["timeline"] = timeline_steps(case)
    return {"test": request}


def timeline_steps(case: TestCase) -> list[dict[str, Any]]:
    """The timeline as the driver plays it (TestJob, FixtureTimeline): tables by their emitted names."""
    names = {info.key: info.emitted for info in case.tables.values()}
    wire: list[dict[str, Any]] = []
    for step in case.timeline or []:
        if step.kind == "rows":
            wire.append({"rows": {name: _wire_rows(bound.changes, bound.table)
                                  for bound in step.given for name in bound.table.emitted}})
        elif step.kind == "watermark":
            wire.append({"watermark": {name: millis for key, millis in step.watermarks.items()
                                       for name in (names.get(key, []) if key != EVERY_SOURCE else ["*"])}})
        elif step.kind in ("idle", "active"):
            wire.append({step.kind: [name for key in step.sources for name in names.get(key, [])]})
        elif step.kind == "proctime":
            wire.append({"proctime": step.proctime})
        else:
            wire.append({"point": True})
    return wire


def answer_error(answer: dict[str, Any], steps: list[dict[str, Any]], timeout: float) -> str:
    """The case's error from the driver's answer, in flinkx's words ("" when it ran)."""
    if "not_run" in answer:
        step = steps[int(answer.get("step", 0))] if 0 <= int(answer.get("step", 0)) < len(steps) else {}
        sql = str(step.get("other", ""))
        return f"flinkx test does not run this statement ({answer['not_run']}): {' '.join(sql.split()[:4])} ..."
    if "refused" in answer:
        return str(answer["refused"])
    if answer.get("timeout"):
        return timeout_message(timeout)
    if "chain" in answer:
        links = [link for link in answer["chain"] if isinstance(link, dict)]
        chain = [(str(link.get("class", "")), str(link.get("message", "")) if link.get("has_message") else "")
                 for link in links]
        messages = [str(link.get("message", "")) for link in links[:10]]
        first = links[0] if links else {}
        return (job_failure(chain) or summarize(messages)[0]
                or f"{first.get('class', 'Error')}: {first.get('message', '')}")
    if "error" in answer:
        return f"the Flink driver could not run the test: {answer['error']}"
    return ""


@dataclass
class DriverCaseRun(CaseRun):
    """A case's run with what a timeline adds: the changes each sink had received at every `expect`
    step (by meta table key) and the rows Flink's operators dropped as late, per operator."""

    points: list[dict[str, list[Change]]] = field(default_factory=list)
    late: dict[str, int] = field(default_factory=dict)
    point_keys: list[dict[str, int]] = field(default_factory=list)  # keys each stateful operator held, per point


class DriverTestRunner:
    """`flinkx test` on the target's own Flink, one child driver for the run. Use as a context manager."""

    __test__ = False  # not a pytest class

    def __init__(self, flink_version: str, timeout: float = 120.0, opener: PlannerOpener = _child_planner,
                 answer_grace: float = ANSWER_GRACE) -> None:
        self.flink_version = flink_version
        self.timeout = timeout
        self._opener = opener
        self.answer_grace = answer_grace
        self._planner: Planner | None = None
        self._runs = 0
        self._driver()  # a missing Java or jars is an environment problem before the first case

    def _driver(self) -> Planner:
        if self._planner is None:
            try:
                self._planner = self._opener(self.flink_version)
            except PlannerStopped as exc:
                raise FlinkUnavailable(f"FX303 the Flink {self.flink_version} driver did not start: {exc}") from None
        return self._planner

    def close(self) -> None:
        if self._planner is not None:
            self._planner.close()
            self._planner = None

    def __enter__(self) -> DriverTestRunner:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def run(self, case: TestCase, script: CompiledScript) -> CaseRun:
        began = time.perf_counter()
        self._runs += 1
        result = DriverCaseRun()
        try:
            request = case_request(case, script, f"run{self._runs}:", self.timeout)
        except NotRunnable as exc:
            result.error = str(exc)
            result.seconds = time.perf_counter() - began
            return result
        try:
            answer = self._driver().ask(request, self.timeout + self.answer_grace)
        except PlannerTimeout:
            self.close()  # a driver that stopped answering is stopped; the next case starts another
            waited = self.timeout + self.answer_grace
            result.error = (f"FX314 the Flink {self.flink_version} driver did not answer within {waited:g} s "
                            "and was stopped (the next test starts a new one)")
        except PlannerStopped as exc:
            self.close()
            raise FlinkUnavailable(f"the Flink JVM died: {exc}") from None
        else:
            result.error = answer_error(answer, request["test"]["steps"], self.timeout)
            if not result.error:
                _collect(answer.get("collected", {}), case, result)
                result.points = [_point(point, answer.get("collected", {}), case)
                                 for point in answer.get("points", [])]
                result.late = _late(answer.get("late", {}))
                result.point_keys = [_late(point.get("keys", {}), keep_zero=True) for point in answer.get("points", [])]
        result.seconds = time.perf_counter() - began
        return result


def _collect(collected: dict[str, Any], case: TestCase, result: CaseRun) -> None:
    emitted: dict[str, TableInfo] = {name: info for info in case.tables.values() for name in info.emitted}
    for name, info in emitted.items():
        raw = collected.get(name, [])
        rows = json.loads(raw) if isinstance(raw, str) else raw
        result.written.setdefault(info.key, []).extend(_read_back(rows, info))


def _point(point: dict[str, Any], collected: dict[str, Any], case: TestCase) -> dict[str, list[Change]]:
    """What each sink had received at a point: the first `counts[name]` of its changes."""
    counts = point.get("counts", {}) if isinstance(point, dict) else {}
    seen: dict[str, list[Change]] = {}
    emitted: dict[str, TableInfo] = {name: info for info in case.tables.values() for name in info.emitted}
    for name, info in emitted.items():
        raw = collected.get(name, [])
        rows = json.loads(raw) if isinstance(raw, str) else raw
        seen.setdefault(info.key, []).extend(_read_back(rows[:int(counts.get(name, 0))], info))
    return seen


def _late(late: Any, keep_zero: bool = False) -> dict[str, int]:
    """Late rows (or state keys) per operator, by the operator's name without the plan node's number
    (`GlobalWindowAggregate[56]` counts plan nodes across every case of the run, so it differs from one run
    to the next)."""
    merged: dict[str, int] = {}
    for operator, count in (late.items() if isinstance(late, dict) else []):
        if int(count) or keep_zero:
            name = re.sub(r"\[\d+\]$", "", str(operator))
            merged[name] = merged.get(name, 0) + int(count)
    return merged
