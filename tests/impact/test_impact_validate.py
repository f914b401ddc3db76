"""`flinkx impact --validate`: the impacted tasks are planned by the real Flink at the head, and
the report says where flinkx's prediction and Flink differ (here: nowhere)."""
from __future__ import annotations

import pytest

from tests.helpers import flink_available
from flinkx_build.impact.planner_check import open_flink
from flinkx_build.pipeline import Session
from tests.impact.test_impact_scenarios import ENRICH_T
from tests.impact.test_impact_scenarios import rename_column
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars

pytestmark = [pytest.mark.flink, pytest.mark.skipif(flink_available() is not None, reason="Flink extra not usable")]


def test_validate_confirms_the_prediction(shop_root, impact):
    rename_column(shop_root)
    result, data = impact(shop_root, "--base", "HEAD", "--validate", "--fail-on", "never")
    assert result.exit_code == 0, result.stderr
    enrich = next(i for i in data["impacts"] if i["node"] == ENRICH_T)
    assert enrich["classification"] == "breaking"
    assert enrich["flink"]["rejects"] and "channel" in enrich["flink"]["messages"][0]
    others = [i for i in data["impacts"] if i["node"] != ENRICH_T]
    assert others and all(i["flink"] == {"rejects": False, "messages": []} for i in others)
    assert data["flink_disagreements"] == []


def test_validate_in_the_text_report(shop_root, impact):
    rename_column(shop_root)
    result, _ = impact(shop_root, "--base", "HEAD", "--validate", fmt="text")
    assert "      flink: rejects it: " in result.stdout
    assert "Flink (--validate): 5 impacted task(s) planned; the prediction agrees" in result.stdout


@pytest.mark.network
def test_validate_plans_on_the_workspaces_flink_version(shop_root, impact, jars_23):
    """A 2.3 workspace's impacted tasks are planned by Flink 2.3's planner (the driver on its jars)."""
    shop_root.edit("flinkx.yaml", 'flink_version: "1.20"', 'flink_version: "2.3"')
    shop_root.commit("on Flink 2.3")
    with open_flink(Session.open(shop_root.ws)) as flink:
        assert flink.flink_version == "2.3.0"
    rename_column(shop_root)
    result, data = impact(shop_root, "--base", "HEAD", "--validate", "--fail-on", "never")
    assert result.exit_code == 0, result.stderr
    enrich = next(i for i in data["impacts"] if i["node"] == ENRICH_T)
    assert enrich["flink"]["rejects"] and "channel" in enrich["flink"]["messages"][0]
    # 2.3's own verdict: upserts whose key is not the sink's primary key need ON CONFLICT there (1.20 takes them)
    assert data["flink_disagreements"], data["flink_disagreements"]
    assert all("upsert key that differs" in line for line in data["flink_disagreements"]), data["flink_disagreements"]
