"""deploy's version refusal (FX305) as a rule: the workspace's target, the client and the cluster agree."""
from __future__ import annotations

from flinkx_build.deploy.versions import version_refusal

URL = "http://127.0.0.1:8081"


def test_the_same_flink_everywhere_is_not_refused():
    assert version_refusal(URL, "1.20", "1.20.5") == ""
    assert version_refusal(URL, "1.20", "") == ""  # a cluster that does not say its version


def test_a_cluster_of_another_version_is_refused():
    assert version_refusal(URL, "1.20", "2.3.0").startswith(f"FX305 the cluster at {URL} runs Flink 2.3.0, but the "
                                                            "workspace's flink_version is 1.20")


def test_every_target_deploys_on_a_cluster_of_its_own_version():
    """2.3 has a client now (the planner driver, deploy/client.py): no longer "not supported yet"."""
    assert version_refusal(URL, "2.3", "2.3.0") == ""
    assert version_refusal(URL, "2.3", "") == ""


def test_a_version_without_a_client_is_refused():
    assert version_refusal(URL, "9.9", "").startswith("FX305 flinkx deploy has no Flink client for flink_version 9.9: it deploys 1.20, 2.3")
