"""The deploy plan as text (terminal), Markdown (a PR or CI summary) and JSON, like `impact`."""
from __future__ import annotations

import json
from typing import Any

from flinkx_build.deploy.compat import OTHER_MEANING
from flinkx_build.deploy.compat import UNKNOWN
from flinkx_build.deploy.compat import WILL_NOT_RESTORE
from flinkx_build.deploy.plan import ORDER
from flinkx_build.deploy.plan import Action
from flinkx_build.deploy.plan import Plan
from flinkx_build.markdown_text import md_code
from flinkx_build.markdown_text import md_text

# Why apply refuses each kind of action, and the flag that accepts it.
WHY_REFUSED = {
    WILL_NOT_RESTORE: "Flink cannot restore the old state into the new job",
    UNKNOWN: "no restore is proven or predicted",
    OTHER_MEANING: "the old state would be read under another rule",
    "failed": "a failed job is never replaced silently",
}


def why_refused(action: Action) -> str:
    if action.changes_meaning:
        return f"{WHY_REFUSED[OTHER_MEANING]}: refused without --allow-changed-meaning"
    level = "failed" if action.action == "failed" else (action.verdict.level if action.verdict else UNKNOWN)
    return f"{WHY_REFUSED[level]}: refused without --allow-fresh-start"


def _job(action: Action) -> str:
    job = action.job
    if job is None:
        return ""
    text = f"job {job.job_id} {job.state}"
    if action.action == "upgrade":
        text += f", SQL {job.fingerprint or '?'} -> {action.desired.fingerprint if action.desired else '?'}"
    return text


def counts(plan: Plan) -> str:
    parts = [f"{len(plan.of(kind))} {kind}" for kind in ORDER if plan.of(kind)]
    return ", ".join(parts) if parts else "no tasks"


def to_text(plan: Plan) -> str:
    lines = [f"flinkx deploy: plan for workspace '{plan.workspace}' on {plan.cluster}"]
    width = max([len(a.task_key) for a in plan.actions] + [10])
    for action in plan.actions:
        detail = _job(action)
        if action.note:
            detail = f"{detail} ({action.note})" if detail else action.note
        lines.append(f"  {action.action:<10} {action.task_key:<{width}}  {detail}".rstrip())
        if action.verdict is not None:
            lines.append(f"  {'':<10} state: {action.verdict.summary}")
        if action.needs_fresh_start or action.changes_meaning:
            lines.append(f"  {'':<10} apply: {why_refused(action)}")
    for key, why in plan.skipped:
        lines.append(f"  {'skipped':<10} {key:<{width}}  {why}")
    lines.append(counts(plan) + ("" if plan.changes else "; nothing to do"))
    return "\n".join(lines) + "\n"


def to_markdown(plan: Plan) -> str:
    lines = [f"### flinkx deploy plan: {md_code(str(plan.workspace))}", "", f"Cluster: {md_text(plan.cluster)}. {counts(plan)}.", "",
             "| action | task | job | state |", "|---|---|---|---|"]
    for action in plan.actions:
        verdict = ""
        if action.verdict:
            how, _, rest = action.verdict.summary.partition(": ")
            verdict = f"{how}: **{action.verdict.label}**: {md_text(rest.split(': ', 1)[-1])}"
        if action.needs_fresh_start or action.changes_meaning:
            flag = "--allow-changed-meaning" if action.changes_meaning else "--allow-fresh-start"
            verdict += (" " if verdict else "") + f"_needs `{flag}`_"
        job = md_text(_job(action) + (f" ({action.note})" if action.note else ""))
        lines.append(f"| {action.action} | {md_code(action.task_key)} | {job} | {verdict} |")
    for key, why in plan.skipped:
        lines.append(f"| skipped | {md_code(key)} | {md_text(why)} | |")
    return "\n".join(lines) + "\n"


def to_data(plan: Plan) -> dict[str, Any]:
    return {"workspace": plan.workspace, "cluster": plan.cluster, "changes": plan.changes,
            "actions": [a.to_data() for a in plan.actions],
            "skipped": [{"task": key, "reason": why} for key, why in plan.skipped]}


def render_plan(fmt: str, plan: Plan) -> str:
    if fmt == "markdown":
        return to_markdown(plan)
    if fmt == "json":
        return json.dumps(to_data(plan), indent=2) + "\n"
    return to_text(plan)
