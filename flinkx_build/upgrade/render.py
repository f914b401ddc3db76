"""An upgrade report as text (one finding a line), markdown (for a pull request) or JSON."""
from __future__ import annotations

import json

from flinkx_build.markdown_text import md_code
from flinkx_build.markdown_text import md_text
from flinkx_build.upgrade.report import UpgradeReport
from flinkx_build.upgrade.report import with_kind

FORMATS = ("text", "markdown", "json")


def render(report: UpgradeReport, fmt: str) -> str:
    return {"text": _text, "markdown": _markdown, "json": _json}[fmt](report)


def _summary(report: UpgradeReport) -> str:
    broken = sum(1 for t in report.tasks if t.breaks)
    touched = sum(1 for t in report.tasks if t.findings)
    text = (f"Flink {report.source} -> {report.target}: {broken} of {len(report.tasks)} task(s) break, "
            f"{touched - broken} more need attention")
    if report.state:
        kept = sum(1 for s in report.state.values() if s.status == "survives")
        text += f"; state survives in {kept} of {len(report.state)} stateful task(s) (restore trials)"
    return text


def _text(report: UpgradeReport) -> str:
    lines = [d.format() for d in report.findings]
    return "\n".join(lines + [_summary(report)]) + "\n"


def _markdown(report: UpgradeReport) -> str:
    out = [f"## Flink {report.source} -> {report.target}", "", _summary(report) + ".", ""]
    if report.findings:
        out += ["| task | where | what | finding | fix |", "|---|---|---|---|---|"]
        names = {t.path: t.task for t in report.tasks}
        for d in report.findings:
            out.append(f"| {md_text(names.get(d.path, '-'))} | {md_code(f'{d.path}:{d.line}:{d.col}')} | "
                       f"{d.code} {md_text(with_kind(d))} | {md_text(d.message)} | {md_text(d.hint)} |")
    clean = [t.task for t in report.tasks if not t.findings]
    if clean:
        out += ["", f"Unaffected: {len(clean)} task(s)."]
    if report.state:
        out += ["", "| task | state after the move (restore trial) |", "|---|---|"]
        out += [f"| {md_text(task)} | {md_text(s.status + (': ' + s.detail if s.detail else ''))} |"
                for task, s in sorted(report.state.items())]
    return "\n".join(out) + "\n"


def _json(report: UpgradeReport) -> str:
    data = {
        "from": report.source, "to": report.target,
        "tasks": [{"task": t.task, "path": t.path, "breaks": t.breaks,
                   "findings": [_finding(d) for d in t.findings],
                   **({"state": _state(report.state[t.task])} if t.task in report.state else {})} for t in report.tasks],
        "other": [_finding(d) for d in report.other],
    }
    return json.dumps(data, indent=1) + "\n"


def _state(survival) -> dict:
    return {"status": survival.status, "detail": survival.detail, "seconds": round(survival.seconds, 1)}


def _finding(d) -> dict:
    return {"path": d.path, "line": d.line, "col": d.col, "code": d.code, "kind": with_kind(d),
            "severity": d.severity or ("error" if d.is_error else "warning"), "message": d.message, "hint": d.hint}
