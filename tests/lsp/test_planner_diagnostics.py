"""The language server's analysis of a task buffer carries the warm planner's verdict (FX301), as lint."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from flinkx_build.lsp.analysis import Models
from flinkx_build.planner import jar as driver
from flinkx_build.planner import jars
from flinkx_build.planner import service
from flinkx_build.planner.session import planner_problem
from flinkx_build.targets import TARGETS
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars

FIXTURE = Path(__file__).parents[1] / "fixtures" / "targets"
pytestmark = [pytest.mark.flink, pytest.mark.network,
              pytest.mark.skipif(planner_problem("2.3", fetch=True) is not None, reason="no planner for 2.3")]


def test_a_buffer_is_planned_on_the_targets_planner(tmp_path, jars_23):
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    (ws / "flinkx.yaml").write_text('engine: flink\nflink_version: "2.3"\n', encoding="utf-8")
    path = ws / "projects" / "p" / "tasks" / "upsert_key_differs.sql"
    # the fast check that says the same (FX497) silenced: the planner's verdict is the finding (one line per root cause)
    text = path.read_text(encoding="utf-8").replace("INSERT INTO order_totals", "INSERT INTO order_totals -- noqa: FX497")
    models = Models(use_planner=True)
    try:
        analysis = models.analyse_task(path, text)
        assert analysis is not None
        [finding] = [d for d in analysis.diagnostics if d.code == "FX301"]
        assert (finding.line, finding.col) == (2, 1) and "upsert key differs from the primary key" in finding.message
        fixed = text.replace("GROUP BY order_id", "GROUP BY user_id").replace("CAST(COUNT(*) AS BIGINT) AS user_id", "user_id")
        assert [d for d in models.analyse_task(path, fixed).diagnostics if d.code == "FX301"] == []
        # the fast checks alone: the offline upsert-key check (FX497), and no planner finding
        assert [d.code for d in Models(use_planner=False).analyse_task(path, path.read_text(encoding="utf-8")).diagnostics] == ["FX497"]
    finally:
        models.forget()
        target = TARGETS["2.3"]
        service.stop(target, driver.driver_jar(target, jars.installed_lib(target), None))
