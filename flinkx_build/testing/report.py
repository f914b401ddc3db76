"""Test results as people and CI read them: human lines, JSON, JUnit XML."""
from __future__ import annotations

import json
import re
from dataclasses import asdict
from dataclasses import dataclass
from dataclasses import field
from xml.etree import ElementTree as ET

from flinkx_build.testing.compare import TableVerdict

_CODED = re.compile(r"FX\d{3} ")


@dataclass
class CaseResult:
    name: str
    task: str
    mode: str
    path: str
    line: int
    status: str  # pass | fail | error
    seconds: float
    tables: list[TableVerdict] = field(default_factory=list)
    error: str = ""  # Flink's message when the job did not run
    col: int = 1  # of the case in its test file
    notes: list[str] = field(default_factory=list)  # what the run saw besides the verdicts (late rows)

    @property
    def title(self) -> str:
        return f"{self.task}: {self.name}"


def human(results: list[CaseResult], seconds: float) -> str:
    """One PASS/FAIL line per case and each failure's diff (the summary line is separate)."""
    lines = []
    for result in results:
        mark = "PASS" if result.status == "pass" else "FAIL"
        mode = " [batch]" if result.mode == "batch" else ""
        where = "" if result.status == "pass" else f"  {result.path}:{result.line}"
        lines.append(f"{mark}  {result.title}{mode} ({result.seconds:.1f} s){where}")
        if result.error and _CODED.match(result.error):  # flinkx's own finding (FX314): one FX line at the case
            lines.append(f"      {result.path}:{result.line}:{result.col}: {result.error}")
        elif result.error:
            lines.append(f"      Flink could not run the test: {result.error}")
        lines += [f"      {note}" for note in result.notes]
        for verdict in result.tables:
            if verdict.ok:
                continue
            at = f", {verdict.at}" if verdict.at else ""
            lines.append(f"      {verdict.table} ({verdict.form}{at}): {verdict.summary}")
            lines += [f"        {detail}" for detail in verdict.details]
    return "\n".join(lines)


def summary(results: list[CaseResult], seconds: float) -> str:
    failed = sum(r.status != "pass" for r in results)
    return f"flinkx: {len(results) - failed} passed, {failed} failed ({seconds:.1f} s)"


def as_json(results: list[CaseResult], seconds: float) -> str:
    failed = sum(r.status != "pass" for r in results)
    return json.dumps({"passed": len(results) - failed, "failed": failed, "seconds": round(seconds, 2),
                       "cases": [asdict(r) for r in results]}, indent=2)


def junit(results: list[CaseResult], seconds: float) -> str:
    suite = ET.Element("testsuite", name="flinkx test", tests=str(len(results)),
                       failures=str(sum(r.status == "fail" for r in results)),
                       errors=str(sum(r.status == "error" for r in results)), time=f"{seconds:.3f}")
    for result in results:
        case = ET.SubElement(suite, "testcase", classname=result.task.replace("/", "."), name=result.name,
                             file=result.path, line=str(result.line), time=f"{result.seconds:.3f}")
        if result.status == "error":
            ET.SubElement(case, "error", message=result.error).text = result.error
        elif result.status == "fail":
            failing = [v for v in result.tables if not v.ok]
            message = "; ".join(f"{v.table}{' ' + v.at if v.at else ''}: {v.summary}" for v in failing)
            body = "\n".join(f"{v.table} ({v.form}{', ' + v.at if v.at else ''}): {v.summary}\n"
                             + "\n".join(f"  {d}" for d in v.details) for v in failing)
            ET.SubElement(case, "failure", message=message).text = body
    ET.indent(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


FORMATS = {"human": human, "json": as_json, "junit": junit}
