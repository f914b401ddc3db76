"""deploy's Flink 2.3 client (the planner driver) against hostile statements: what the 1.20 client
refuses, it refuses too, before the cluster is contacted; the operator's jars reach only the child
driver of a submitting run."""
from __future__ import annotations

from pathlib import Path

import pytest

from flinkx_build.planner.process import command
from tests.planner.conftest import needs_planner
from tests.security.test_attack_engine_settings import Listener


@pytest.mark.flink
@pytest.mark.network
@needs_planner("2.3")
def test_the_2_3_client_never_submits_with_a_tasks_jars(tmp_path):
    from flinkx_build.deploy.client import FlinkClient
    from flinkx_build.deploy.identity import Statement
    from flinkx_build.deploy.submission import DeployFlinkError

    jar = tmp_path / "lib" / "evil.jar"
    jar.parent.mkdir()
    jar.write_bytes(b"PK\x05\x06" + b"\0" * 18)
    statements = [
        Statement("set", f"SET 'pipeline.jars' = '{jar.as_uri()}'"),
        Statement("create_table", "CREATE TEMPORARY TABLE src (s STRING) WITH ('connector' = 'datagen')"),
        Statement("create_table", "CREATE TEMPORARY TABLE snk (s STRING) WITH ('connector' = 'blackhole')"),
        Statement("insert", "INSERT INTO snk SELECT s FROM src"),
    ]
    listener = Listener()
    try:
        with FlinkClient("2.3", []) as flink:
            with pytest.raises(DeployFlinkError) as refused:
                flink.submit(statements, f"http://127.0.0.1:{listener.port}", "flinkx:ws/p/t", {})
    finally:
        listener.close()
    assert listener.connections == 0
    assert str(refused.value).startswith("FX196 SET 'pipeline.jars' is not an engine setting"), refused.value


def test_the_operators_jars_go_only_after_flinks_on_the_drivers_class_path():
    """The driver's class path: its own jar, the target's lib, then (deploy --apply only) the operator's jars."""
    jar, lib, connector = Path("/c/flinkx-planner.jar"), Path("/c/targets/2.3.0/lib"), Path("/ops/kafka.jar")
    plain = command("java", jar, lib, "--stdio")
    assert plain[plain.index("-cp") + 1] == f"{jar}:{lib}/*"
    with_jar = command("java", jar, lib, "--stdio", jars=(connector,))
    assert with_jar[with_jar.index("-cp") + 1] == f"{jar}:{lib}/*:{connector}"
