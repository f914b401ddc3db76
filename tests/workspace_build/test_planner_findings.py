"""build plans its tasks on the target's planner as lint does (issue 28 item 4: one verdict from lint,
`build --check`, `build` and the flinkx-build pre-commit hook). Real CLI processes, the real 1.20 planner."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.planner.session import planner_problem
from tests.lint.test_planner_pass import stop_all_services

FIXTURE = Path(__file__).parents[1] / "fixtures" / "targets"
pytestmark = [pytest.mark.flink, pytest.mark.skipif(planner_problem("1.20", fetch=True) is not None,
                                                    reason=f"no planner: {planner_problem('1.20', fetch=True)}")]
# the fast checks miss it (no signature check of LIKE's operands), Flink 1.20's planner refuses it
LIKE_A_NUMBER = "INSERT INTO user_totals\nSELECT user_id, SUM(amount) AS total FROM orders WHERE payload LIKE 5 GROUP BY user_id;\n"
PLANNER_LINE = "ws/projects/p/tasks/plain.sql:2:56: FX301 LIKE cannot take LIKE(<VARCHAR(2147483647)>, <INTEGER>)"


@pytest.fixture(scope="module", autouse=True)
def planners_stopped_after_the_module():
    """The warm planner serves every test here (as it serves a user's lint and build); ended once, at the end."""
    yield
    stop_all_services()


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    (ws / "flinkx.yaml").write_text('engine: flink\nflink_version: "1.20"\n', encoding="utf-8")
    for name in ("removed_option.sql", "upsert_key_differs.sql"):  # version-sensitive: other tests' business
        (ws / "projects" / "p" / "tasks" / name).unlink()
    (ws / "projects" / "p" / "tasks" / "plain.sql").write_text(LIKE_A_NUMBER, encoding="utf-8")
    return ws


def flinkx(ws: Path, *args: str, planner: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "FLINKX_NO_PLANNER" or not planner}
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args, ws.name], cwd=ws.parent, env=env,
                          capture_output=True, text=True, timeout=600)


def findings(result: subprocess.CompletedProcess) -> list[str]:
    return [line for line in result.stdout.splitlines() if ": FX" in line]


def test_lint_build_check_and_build_give_the_planners_verdict_alike(tmp_path):
    ws = workspace(tmp_path)
    lint, check, build = flinkx(ws, "lint"), flinkx(ws, "build", "--check"), flinkx(ws, "build")
    assert [r.returncode for r in (lint, check, build)] == [1, 1, 1], lint.stdout + check.stdout + build.stdout
    [line] = findings(lint)
    assert line.startswith(PLANNER_LINE)
    assert findings(check) == findings(build) == [line]
    assert not (ws / "build").exists()  # SQL Flink rejects is never written


def test_without_the_planner_build_and_lint_agree_too(tmp_path):
    ws = workspace(tmp_path)
    assert flinkx(ws, "build", "--check").returncode == 1  # remembered by the build's replay memo ...
    check = flinkx(ws, "build", "--check", "--no-planner")  # ... which must not answer a run without the planner
    lint = flinkx(ws, "lint", "--no-planner")
    assert check.returncode == lint.returncode == 0, check.stdout + check.stderr
    off = flinkx(ws, "build", "--check", planner=False)  # FLINKX_NO_PLANNER set
    assert off.returncode == 0 and findings(off) == []


def test_a_build_plans_and_compiles_only_the_tasks_the_planner_has_not_accepted(tmp_path):
    from flinkx_build.lint.planner_pass import PlannerPass
    from flinkx_build.pipeline import Session
    from flinkx_build.workspace_build.compile_all import compile_workspace
    from flinkx_build.workspace_build.planner_findings import planner_findings

    ws = workspace(tmp_path)
    (ws / "projects" / "p" / "tasks" / "plain.sql").write_text(LIKE_A_NUMBER.replace(" WHERE payload LIKE 5", ""))
    (ws / "projects" / "p" / "tasks" / "second.sql").write_text(LIKE_A_NUMBER.replace("LIKE 5", "LIKE '5'"))

    def build() -> tuple[PlannerPass, Session, list]:
        session = Session.open(ws)
        built = compile_workspace(session, [])
        planner = PlannerPass(session)
        found = planner_findings(session, [], built.summaries, planner)
        planner.close()
        return planner, session, found

    first, _, found = build()
    assert found == [] and first.planned == 2 and first.note == ""
    second, session, found = build()
    assert found == [] and second.planned == 0 and second.cached == 2
    # answered from the index of accepted tasks: nothing parsed, resolved or compiled again
    assert session._parsed == session._analysed == session._compiled == {}
    (ws / "projects" / "p" / "tasks" / "second.sql").write_text(LIKE_A_NUMBER)
    third, _, found = build()
    assert third.planned == 1 and [d.code for d in found] == ["FX301"]
