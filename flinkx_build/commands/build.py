"""`flinkx build`: compile every task into standalone Flink SQL."""
from __future__ import annotations

import time
from pathlib import Path

import click

from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import project_option
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_progress
from flinkx_build.commands.console import echo_summary
from flinkx_build.commands.console import echo_error
from flinkx_build.commands.console import verbose
from flinkx_build.commands.planner_switch import no_planner_option
from flinkx_build.commands.planner_switch import planner_note
from flinkx_build.commands.planner_switch import planner_state
from flinkx_build.emit.build_cache import BuildMemo
from flinkx_build.emit.writer import prepare_build_folder


@click.command("build")
@workspace_argument
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), default=None, help="Build folder (default: flinkx.yaml's build_dir).")
@project_option
@mode_option
@click.option("--check", is_flag=True, help="Compile everything, write nothing.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the parse cache.")
@no_planner_option
def command(workspace: Path, out: Path | None, projects: tuple[str, ...], mode: str | None, check: bool, no_cache: bool,
            no_planner: bool) -> None:
    """Compile WORKSPACE (default: .) into standalone Flink SQL files; each task is also planned on the
    Flink planner of its flink_version when Java and its jars are here (as lint does)."""
    started = time.perf_counter()
    state = planner_state(workspace, not no_planner) if workspace.exists() else "off"
    if planner_note(state):  # said once, whether the build runs or is replayed
        echo_error(f"flinkx: {planner_note(state)}")
    memo = None if no_cache or not workspace.exists() else BuildMemo.open(workspace, out, projects, mode, check, state)
    if memo is not None and _replayed(memo, check, started):
        return
    # the few tasks a change needs parsing go to a process that imports sqlfluff from now on,
    # while this one imports the pipeline and loads the workspace (`frontend/worker.py`)
    from flinkx_build.frontend.worker import take
    from flinkx_build.frontend.worker import warm_parser

    parser = take(warm_parser)
    try:
        # only now the pipeline (networkx, the checks): a replayed build never needs it
        from flinkx_build.commands.common import check_projects
        from flinkx_build.commands.common import open_session
        from flinkx_build.workspace_build.early_parse import early_parses
        from flinkx_build.commands.progress import compile_with_progress

        if memo is not None and not projects and not check and _incremental(memo, workspace, mode, parser, state, started):
            return  # only task files changed: the changed tasks were made, the rest is the last build's record
        on_projects = early_parses(parser, memo.out_dir) if memo is not None else None
        session = open_session(workspace, mode, use_cache=not no_cache, parser=parser, on_projects=on_projects)
        selected = check_projects(session, projects)
        ws = session.workspace
        out_dir = out or (ws.root / ws.config.build_dir)
        if not check:  # refuse a folder flinkx may not replace before any work; clear what killed builds left
            prepare_build_folder(out_dir, ws.root)
        built = compile_with_progress(session, selected)
    finally:
        if parser is not None:
            parser.close()
    planned: dict = {}
    if state.startswith("on "):
        from flinkx_build.commands.progress import plan_with_progress

        planned = plan_with_progress(session, session.tasks(selected), built.summaries)
        built.diagnostics.extend(d for found in planned.values() for d in found)
    from flinkx_build.commands.common import echo_diagnostics
    from flinkx_build.emit.manifest import build_manifest
    from flinkx_build.emit.spare import spare_path
    from flinkx_build.emit.writer import write_build
    from flinkx_build.errors import WorkspaceErrors

    outputs, diags = built.outputs, built.diagnostics
    errors = [d for d in diags if d.is_error]
    if errors:
        raise WorkspaceErrors(diags)
    echo_diagnostics([d for d in diags if not d.is_error])
    elapsed = time.perf_counter() - started
    warnings = [d for d in diags if not d.is_error]
    projects_built = len({k.split('/')[0] for k in outputs})
    if check:
        echo_summary(f"flinkx: {len(outputs)} tasks compile cleanly ({elapsed:.1f} s); nothing written (--check)", ok=True)
        if memo is not None:
            memo.remember(warnings, {}, len(outputs), projects_built, check)
        return
    files = {rel: text for rel, text in outputs.values()}
    keep = set(ws.projects) - set(selected) if selected else None
    spare = spare_path(ws.cache_root, out_dir) if not no_cache else None
    # the manifest lives only while it is written: the record below is the next peak (at 10,010 tasks the
    # manifest held 51 MB)
    write_build(out_dir, files, build_manifest(ws, built.summaries, {k: v[0] for k, v in outputs.items()}, built.graph),
                keep, workspace_root=ws.root, spare=spare)
    if verbose():  # a line per file, only with -v (and a Path per file only then: 1,000 of them)
        for rel in sorted(files):
            echo_progress(f"wrote {out_dir / rel}")
    echo_summary(f"flinkx: built {len(outputs)} tasks of {projects_built} projects into {out_dir} ({time.perf_counter() - started:.1f} s)", ok=True)
    if memo is not None:
        signature = memo.remember(warnings, files, len(outputs), projects_built, check)
        if signature is not None and not selected:  # what the next build needs of every task it will not visit
            from flinkx_build.workspace_build.record import record_of

            tasks = session.tasks()
            record = record_of(memo.key, ws, _others(session, tasks), tasks, {s.key: s for s in built.summaries},
                               {k: v[0] for k, v in outputs.items()}, planned, signature)
            _store_record(memo, mode, state, record)


def _others(session, tasks) -> list:
    """The build's findings that no task's summary holds: the load's and the meta tables' YAML's, as reported."""
    from flinkx_build.checks.workspace import yaml_only_findings
    from flinkx_build.noqa import suppressed

    ws, texts = session.workspace, {t.display_path: t.text for t in tasks}
    found = ws.config.lint.apply([*session.load_diagnostics, *yaml_only_findings(ws)])
    return [d for d in found if not suppressed(texts.get(d.path, ""), d)]


def _record_place(memo: BuildMemo, mode: str | None, state: str):
    from flinkx_build.cache_version import versioned_cache_root
    from flinkx_build.workspace_build.record import record_key

    return versioned_cache_root(memo.root, memo.cache_dir), record_key(memo.root, memo.out_dir, {"mode": mode or "", "planner": state})


def _store_record(memo: BuildMemo, mode: str | None, state: str, record) -> None:
    from flinkx_build.workspace_build.record import write_record

    write_record(*_record_place(memo, mode, state), record)


def _incremental(memo: BuildMemo, workspace: Path, mode: str | None, parser, state: str, started: float) -> bool:
    """The build when only task files changed since the last one (`workspace_build/incremental_build.py`):
    printed, written and remembered; False when it must be made whole."""
    from flinkx_build.commands.common import echo_diagnostics
    from flinkx_build.commands.common import open_session
    from flinkx_build.commands.progress import plan_with_progress
    from flinkx_build.emit.spare import spare_path
    from flinkx_build.emit.writer import write_build
    from flinkx_build.errors import WorkspaceErrors
    from flinkx_build.workspace_build.incremental_build import incremental_build
    from flinkx_build.workspace_build.record import read_record

    cache_root, key = _record_place(memo, mode, state)
    record = read_record(cache_root, key)
    if record is None:
        return False
    plan = plan_with_progress if state.startswith("on ") else None
    made = incremental_build(memo.root, memo.out_dir, record, memo.key,
                             lambda **limits: open_session(workspace, mode, parser=parser, **limits), plan)
    if made is None:
        return False
    if any(d.is_error for d in made.diagnostics):
        raise WorkspaceErrors(made.diagnostics)
    warnings = made.diagnostics
    echo_diagnostics(warnings)
    out_dir = memo.shown_out
    prepare_build_folder(out_dir, memo.root)
    write_build(out_dir, made.written, made.manifest, workspace_root=memo.root, spare=spare_path(cache_root, out_dir),
                unchanged=made.kept)
    outputs = made.outputs
    if verbose():  # what the replay says of a file it keeps, and a whole build of one it writes
        for rel in outputs:
            echo_progress(f"{'wrote' if rel in made.written else 'unchanged'} {out_dir / rel}")
    projects_built = len({rel.split("/")[0] for rel in outputs})
    echo_summary(f"flinkx: built {len(outputs)} tasks of {projects_built} projects into {out_dir} ({time.perf_counter() - started:.1f} s)", ok=True)
    kept = {rel: sig for rel, sig in record.files.items() if rel in made.kept}  # the same inodes: linked, never written
    signature = memo.remember(warnings, made.written, len(outputs), projects_built, False, listed=outputs, kept=kept)
    if signature is not None:
        made.record.entries, made.record.racy, made.record.files = dict(memo.key.entries), dict(memo.key.racy), signature
        _store_record(memo, mode, state, made.record)
    return True


def _replayed(memo: BuildMemo, check: bool, started: float) -> bool:
    """Print what the identical last build printed (nothing to write: the folder already holds it)."""
    replay = memo.replay(check)
    if replay is None:
        return False
    warnings, written, tasks, projects = replay
    if not check:
        prepare_build_folder(memo.shown_out, memo.root)  # the same refusals and leftover cleanup as a full build
    from flinkx_build.commands.common import echo_diagnostics

    echo_diagnostics(warnings)
    elapsed = time.perf_counter() - started
    if check:
        echo_summary(f"flinkx: {tasks} tasks compile cleanly ({elapsed:.1f} s); nothing written (--check)", ok=True)
        return True
    if verbose():
        for rel in written:
            echo_progress(f"unchanged {memo.shown_out / rel}")
    echo_summary(f"flinkx: built {tasks} tasks of {projects} projects into {memo.shown_out} ({elapsed:.1f} s)", ok=True)
    return True
