"""`flinkx deploy --cluster URL [--plan | --apply]`: make a Flink cluster run what git says.

Desired state is the build of the checked-out workspace; actual state is the cluster's jobs, read
over Flink's REST API. `--plan` (the default) prints what would change, with a state-compatibility
verdict per upgrade; `--apply` does it: remove, upgrade through stop-with-savepoint, create.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import click

from flinkx_build.commands.common import check_projects
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import project_option
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.progress import compile_with_progress
from flinkx_build.deploy.apply import Applier
from flinkx_build.deploy.apply import MissingSecret
from flinkx_build.deploy.apply import fill
from flinkx_build.deploy.apply import scrub
from flinkx_build.deploy.apply import secret_values
from flinkx_build.deploy.cluster import ClusterError
from flinkx_build.deploy.cluster import FlinkRest
from flinkx_build.deploy.compat import OTHER_MEANING
from flinkx_build.deploy.jars import deploy_jars
from flinkx_build.deploy.prove import prove_upgrades
from flinkx_build.deploy.report import WHY_REFUSED
from flinkx_build.deploy.report import render_plan
from flinkx_build.deploy.report import to_data
from flinkx_build.deploy.state import deployed_jobs
from flinkx_build.deploy.state import desired_jobs
from flinkx_build.deploy.state import workspace_name
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.errors import WorkspaceErrors
from flinkx_build.pipeline import Session

DEPLOYED_ENGINES = ("flink", "vvr")


def _secret_error(missing: MissingSecret) -> UsageError:
    return UsageError(f"{missing.where}: FX601 secret '{missing.name}' is not set in the environment "
                      f"(export {missing.name} or {missing.name.upper()} before flinkx deploy --apply)")


def _refuse_a_target_deploy_does_not_run_on(flink_version: str) -> None:
    """One line before any cluster is asked (a version flinkx has no target for is versions.py's FX305)."""
    from flinkx_build.planner.session import target_or_problem
    from flinkx_build.targets import target as target_named

    problem = target_or_problem(flink_version, "deploy")
    if isinstance(problem, str) and target_named(flink_version) is not None:
        raise UsageError(problem)


@click.command("deploy")
@workspace_argument
@click.option("--cluster", "cluster", required=True, metavar="URL", help="The Flink REST endpoint, e.g. http://flink-jobmanager:8081.")
@click.option("--plan", "do", flag_value="plan", default=True, help="Show what would change (the default).")
@click.option("--apply", "do", flag_value="apply", help="Make the cluster match the workspace.")
@project_option
@click.option("--savepoint-dir", "savepoint_dir", metavar="DIR", default=None,
              help="Where stop-with-savepoint writes (default: the cluster's state.savepoints.dir).")
@click.option("--jar", "jars", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="A connector or UDF jar shipped with every job (repeatable; default: flinkx.yaml deploy.jars from $FLINKX_JAR_DIR).")
@click.option("--allow-fresh-start", is_flag=True, help="Also upgrade jobs that cannot keep their state (they start empty).")
@click.option("--prove", is_flag=True,
              help="Prove every upgrade with a restore trial (a savepoint of the running job restored into the new job "
                   "in a sandbox); --apply always does. Needs the secrets and jars --apply needs.")
@click.option("--trial-from", "trial_from", type=click.Choice(["new", "latest"]), default="new", show_default=True,
              help="The trial's savepoint: a new one of the running job, or its newest retained savepoint or checkpoint.")
@click.option("--allow-changed-meaning", is_flag=True,
              help="Also upgrade jobs whose state restores but means something else (a window size, a key expression, ...).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
def command(workspace: Path, cluster: str, do: str, projects: tuple[str, ...], savepoint_dir: str | None,
            jars: tuple[Path, ...], prove: bool, trial_from: str, allow_fresh_start: bool, allow_changed_meaning: bool,
            fmt: str) -> None:
    """Plan or apply WORKSPACE (default: .) on the Flink cluster at --cluster."""
    from flinkx_build.deploy.plan import make_plan
    from flinkx_build.deploy.versions import version_refusal

    started = time.perf_counter()
    session = open_session(workspace)
    ws = session.workspace
    if ws.config.engine not in DEPLOYED_ENGINES or session.mode != "stream":
        raise UsageError(f"FX604 flinkx deploy runs Apache Flink streaming jobs; this workspace is engine "
                         f"'{ws.config.engine}', mode '{session.mode}' (use engine flink or vvr, mode stream)")
    _refuse_a_target_deploy_does_not_run_on(ws.config.flink_version)
    selected = check_projects(session, projects)
    diags = compile_with_progress(session, selected).diagnostics
    if any(d.is_error for d in diags):
        raise WorkspaceErrors(diags)
    # jars are loaded only to submit or prove (--apply, --prove); planning uses flinkx's stand-ins and loads none
    proving = do == "apply" or prove
    jar_paths = deploy_jars(ws.config.deploy.jars, jars) if proving else []
    desired, skipped = desired_jobs(session, session.tasks(selected))
    try:
        rest = FlinkRest(cluster)
        cluster_version = str(rest.overview().get("flink-version") or "")
        refusal = version_refusal(rest.url, ws.config.flink_version, cluster_version)
        if refusal:
            raise UsageError(refusal)
        deployed = deployed_jobs(rest, workspace_name(ws))
    except ClusterError as exc:
        raise UsageError(f"FX600 {exc}") from None
    flink = None
    try:
        plan = make_plan(workspace_name(ws), rest.url, desired, deployed, selected, None)
        # before the client JVM starts: a missing secret is one line, and nothing has begun
        secrets = _secrets(session, plan) if proving else {}
        if plan.of("upgrade") or (do == "apply" and plan.of("create", "upgrade", "failed")):
            flink = _start_flink(session, jar_paths)
            plan = make_plan(workspace_name(ws), rest.url, desired, deployed, selected, flink.compile_job, flink.flink_version)
            if proving and plan.of("upgrade"):  # Flink's own answer, before anything stops
                prove_upgrades(plan, flink, rest, lambda statements: fill(statements, secrets), savepoint_dir,
                               trial_from == "latest", lambda line: click.echo(scrub(line, secrets), err=fmt == "json"))
        plan.skipped = skipped
        if do == "plan":
            click.echo(render_plan(fmt, plan), nl=False)
            return
        _apply(plan, rest, flink, secrets, savepoint_dir, (allow_fresh_start, allow_changed_meaning), fmt, started)
    finally:
        if flink is not None:
            flink.close()


def _start_flink(session: Session, jars: list[Path]):
    from flinkx_build.deploy.client import open_client
    from flinkx_build.planner import FlinkUnavailable

    ws = session.workspace
    try:
        return open_client(ws.config.flink_version, jars)
    except FlinkUnavailable as exc:
        raise UsageError(f"flinkx deploy needs a Flink {ws.config.flink_version} client: {exc}") from None


def _refusal(action) -> Diagnostic:
    """FX602 at the task (at the statement of the operator Flink refused, after a trial): why apply will not do
    this action, and the flag that would."""
    path, line, col = action.where or (action.desired.source if action.desired else action.task_key, 1, 1)
    if action.changes_meaning:
        why = f"{action.verdict.summary}; {WHY_REFUSED[OTHER_MEANING]}"
        hint = "rerun with --allow-changed-meaning to keep the state under the new rule, or --allow-fresh-start"
    else:
        level = action.verdict.level if action.verdict and action.action == "upgrade" else "failed"
        why = f"{action.verdict.summary if action.verdict else action.note}; {WHY_REFUSED[level]}"
        hint = "rerun with --allow-fresh-start to start it without its state"
    return Diagnostic(path, line, col, "FX602", f"{action.action} of {action.task_key} refused: {why}", hint)


def _secrets(session: Session, plan) -> dict[str, str]:
    try:
        return secret_values(plan, session.workspace.config.secrets)
    except MissingSecret as missing:
        raise _secret_error(missing) from None


def _apply(plan, rest: FlinkRest, flink, secrets: dict[str, str], savepoint_dir: str | None, allowed: tuple[bool, bool],
           fmt: str, started: float) -> None:
    """`allowed`: (--allow-fresh-start, --allow-changed-meaning)."""
    allow_fresh_start, allow_changed_meaning = allowed
    as_json = fmt == "json"

    def progress(line: str) -> None:
        click.echo(line, err=as_json)

    if not as_json:
        click.echo(render_plan(fmt, plan), nl=False)
    refused = [a for a in plan.actions if (a.needs_fresh_start and not allow_fresh_start)
               or (a.changes_meaning and not allow_changed_meaning and not allow_fresh_start)]
    if refused:
        raise WorkspaceErrors([_refusal(action) for action in refused])
    outcomes = Applier(plan, rest, flink, savepoint_dir, secrets, progress, allow_fresh_start, allow_changed_meaning).run()
    failed = [o for o in outcomes if not o.ok]
    elapsed = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({"plan": to_data(plan), "outcomes": [o.to_data() for o in outcomes]}, indent=2))
    elif not outcomes:  # the summary on stderr, like every command's
        echo_summary(f"flinkx deploy: nothing to do, {len(plan.of('unchanged'))} job(s) unchanged ({elapsed:.1f} s)", ok=True)
    else:
        echo_summary(f"flinkx deploy: applied {len(outcomes) - len(failed)} of {len(outcomes)} change(s) ({elapsed:.1f} s)", ok=not failed)
    if failed:
        for outcome in failed:
            click.echo(f"flinkx: error: FX603 {outcome.action} {outcome.task_key}: {outcome.message}", err=True)
        raise SystemExit(1)
