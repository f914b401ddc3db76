"""What a job's submission is on any Flink client: its steps, flinkx's own options, and Flink's refusal in one line.

deploy's client (driver_client.py, the planner driver's DeployClient.java) sends these steps and options; they
are decided here, once. Jobs are submitted as SQL with `execution.target: remote` (client-side planning).
Operator ids then come from Flink's topology hash (`table.exec.uid.generation` stays at its default PLAN_ONLY): an
unchanged topology maps its savepoint state again, which is what an upgrade relies on.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from flinkx_build import engine_settings
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.planning import NO_INSERT
from flinkx_build.deploy.planning import set_refusal
from flinkx_build.validate.findings import summarize

_EXECUTED = frozenset({"create_table", "create_view", "create_function", "other"})


class DeployFlinkError(Exception):
    """Flink refused a statement or a submission; the message is one line."""


def refusal(messages: list[str]) -> str:
    """Flink's summary plus the innermost cause, which says why (a submission failing with "Could
    not start the JobMaster" is explained only at the bottom: "Cannot map checkpoint/savepoint
    state for operator ...")."""
    summary = summarize(messages)[0]
    lines = [line.strip() for line in (messages[-1] if messages else "").splitlines() if line.strip()]
    root = lines[0] if lines else ""
    if root and root[:60] not in summary:
        summary = f"{summary} -- {root}"
    return summary if len(summary) <= 600 else summary[:597] + "..."


def submission_steps(statements: list[Statement]) -> list[tuple[str, ...]]:
    """What submitting a job does with its statements, in order, on any Flink client: ("set", key, value)
    for an allowed SET (a refused one stops here), ("execute", sql) for DDL with the real connectors and
    functions, ("insert", sql) for each INSERT of the job's statement set."""
    steps: list[tuple[str, ...]] = []
    for stmt in statements:
        if stmt.kind == "set":
            pair = engine_settings.set_pair(stmt.text)
            if pair:
                why = set_refusal(*pair)
                if why:
                    raise DeployFlinkError(why)
                steps.append(("set", *pair))
        elif stmt.kind == "insert":
            steps.append(("insert", stmt.text))
        elif stmt.kind in _EXECUTED:
            steps.append(("execute", stmt.text))
        # select, begin/end of a statement set: a task is one job; every INSERT joins it
    if not any(step[0] == "insert" for step in steps):
        raise DeployFlinkError(NO_INSERT)
    return steps


def submit_options(cluster_url: str, name: str, jars: list[Path], savepoint: str | None) -> dict[str, str]:
    """flinkx's own settings of a submission; they win over the task's SETs."""
    url = urlparse(cluster_url)
    options = {
        "execution.target": "remote",
        "rest.address": url.hostname or "127.0.0.1",
        "rest.port": str(url.port or 8081),
        "pipeline.name": name,
        "parallelism.default": "1",
        # The client returns once the job is submitted; deploy then watches it over REST.
        "execution.attached": "false",
    }
    if jars:
        options["pipeline.jars"] = ";".join(p.as_uri() for p in jars)
    if savepoint:
        options["execution.savepoint.path"] = savepoint
    return options
