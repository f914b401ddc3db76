"""deploy's Flink 2.3 client on the planner driver (deploy/client.py), without a cluster.

It compiles a job's plan on 2.3's own planner with flinkx's stand-ins, and refuses what planning on
1.20 refuses, in the same words (deploy/planning.py): code loading (FX195), engine settings (FX196),
a function without a declared signature, a task without an INSERT; Flink's own refusal is one line.
"""
from __future__ import annotations

import json

import pytest

from flinkx_build.deploy.client import FlinkClient
from flinkx_build.deploy.client import open_client
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.submission import DeployFlinkError
from flinkx_build.validate.contract import UdfStub
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.network, needs_planner("2.3")]

SOURCE = Statement("create_table", "CREATE TABLE src (user_id BIGINT, url STRING) WITH ('connector' = 'kafka', 'topic' = 'x')")
SINK = Statement("create_table", "CREATE TABLE snk (user_id BIGINT, clicks BIGINT, PRIMARY KEY (user_id) NOT ENFORCED) "
                                 "WITH ('connector' = 'jdbc')")
COUNT = Statement("insert", "INSERT INTO snk SELECT user_id, COUNT(*) FROM src GROUP BY user_id")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with open_client("2.3", []) as opened:
        yield opened


def test_the_2_3_workspace_gets_the_driver_on_2_3s_jars(client):
    assert isinstance(client, FlinkClient)
    assert client.flink_version == "2.3.0"


def test_a_plan_is_2_3s_compiled_plan_with_stand_in_connectors(client):
    plan = client.compile_plan([SOURCE, SINK, COUNT])
    types = [node["type"] for node in plan["nodes"]]
    assert "stream-exec-group-aggregate_1" in types
    assert plan["flinkVersion"] == "2.3"
    # the kafka and jdbc tables were planned with the stand-in: no connector of theirs is loaded here
    text = json.dumps(plan)
    assert text.count('"connector": "flinkx-standin"') == 2
    assert '"flinkx.original-connector": "kafka"' in text and '"flinkx.original-connector": "jdbc"' in text


def test_a_declared_function_is_planned_as_its_stand_in(client):
    lengths = Statement("create_table", "CREATE TABLE lengths (user_id BIGINT, n INT) WITH ('connector' = 'print')")
    create = Statement("create_function", "CREATE TEMPORARY FUNCTION mask AS 'com.shop.Mask'")
    insert = Statement("insert", "INSERT INTO lengths SELECT user_id, CHAR_LENGTH(mask(url)) FROM src")
    plan = client.compile_plan([SOURCE, lengths, create, insert], (UdfStub("mask", "STRING"),))
    assert "mask" in str(plan["nodes"])
    with pytest.raises(DeployFlinkError, match="function 'mask' has no declared signature"):
        client.compile_plan([SOURCE, lengths, create, insert])


def test_2_3s_own_rules_apply_to_the_plan(client):
    """FLIP-558: an upsert key other than the sink's primary key needs ON CONFLICT on 2.3 (1.20 plans it)."""
    mismatch = Statement("insert", "INSERT INTO snk SELECT CAST(COUNT(*) AS BIGINT), COUNT(*) FROM src GROUP BY url")
    with pytest.raises(DeployFlinkError, match="upsert key that differs from the primary key"):
        client.compile_plan([SOURCE, SINK, mismatch])


@pytest.mark.parametrize("statement, message", [
    (Statement("other", "ADD JAR '/tmp/evil.jar'"), "FX195 not planned: AddJarOperation could load or run code on this machine"),
    (Statement("set", "SET 'pipeline.jars' = 'file:///tmp/evil.jar'"), "FX196 SET 'pipeline.jars' is not an engine setting"),
    (Statement("other", "CREATE CATALOG c WITH ('type' = 'jdbc')"), "FX195 not planned: CreateCatalogOperation"),
])
def test_what_loads_code_or_steers_the_engine_is_refused_as_on_1_20(client, statement, message):
    with pytest.raises(DeployFlinkError) as refused:
        client.compile_plan([statement, SOURCE, SINK, COUNT])
    assert str(refused.value).startswith(message)


def test_a_task_without_an_insert_and_a_flink_refusal_are_one_line(client):
    with pytest.raises(DeployFlinkError, match="^the task has no INSERT: nothing to run as a job$"):
        client.compile_plan([SOURCE, SINK])
    with pytest.raises(DeployFlinkError) as refused:
        client.compile_plan([SOURCE, SINK, Statement("insert", "INSERT INTO snk SELECT nope, 1 FROM src")])
    assert "Column 'nope' not found in any table" in str(refused.value)
    assert "\n" not in str(refused.value)
