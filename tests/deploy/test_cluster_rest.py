"""FlinkRest reads Flink's answers as each version gives them (shapes measured on 1.20.5 and 2.3.0 clusters)."""
from __future__ import annotations

from flinkx_build.deploy.cluster import FlinkRest

TRACE = ("java.lang.RuntimeException: Error while getting state\n\tat x.y(Z.java:1)\n"
         "Caused by: org.apache.flink.util.StateMigrationException: The new key serializer must be compatible\n\tat a.b(C.java:2)")


def rest_answering(answer: dict) -> FlinkRest:
    rest = FlinkRest("http://127.0.0.1:1")
    rest.get = lambda path: answer  # type: ignore[method-assign]
    return rest


def test_the_root_cause_comes_from_the_exception_history_on_flink_2():
    # Flink 2.x removed `root-exception`: only the history carries the failure (2.3.0 said
    # "no exception recorded" for every failed restore before)
    answer = {"exceptionHistory": {"entries": [{"exceptionName": "java.lang.RuntimeException", "stacktrace": TRACE}],
                                   "truncated": False}}
    assert rest_answering(answer).root_exception("j") == \
        "org.apache.flink.util.StateMigrationException: The new key serializer must be compatible"


def test_the_root_cause_of_flink_1_20():
    answer = {"root-exception": TRACE, "exceptionHistory": {"entries": []}}
    assert rest_answering(answer).root_exception("j").startswith("org.apache.flink.util.StateMigrationException")
    assert rest_answering({"exceptionHistory": {"entries": []}}).root_exception("j") == "no exception recorded"
