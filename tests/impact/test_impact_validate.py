"""`flinkx impact --validate`: the impacted tasks are planned by the real Flink at the head, and
the report says where flinkx's prediction and Flink differ (here: nowhere)."""
from __future__ import annotations

import pytest

from flinkx_build.validate.engine import flink_available
from tests.impact.test_impact_scenarios import ENRICH_T
from tests.impact.test_impact_scenarios import rename_column

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
