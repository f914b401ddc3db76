"""The pure parts of deploy: job identity, SET parsing, secrets, the plan's decisions."""
from __future__ import annotations

import pytest

from flinkx_build.deploy.apply import MissingSecret
from flinkx_build.deploy.apply import fill
from flinkx_build.deploy.apply import scrub
from flinkx_build.deploy.apply import secret_values
from flinkx_build.deploy.compat import OTHER_MEANING
from flinkx_build.deploy.compat import RESTORES
from flinkx_build.deploy.compat import WILL_NOT_RESTORE
from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Verdict
from flinkx_build.engine_settings import set_pair
from flinkx_build.deploy.identity import Statement
from flinkx_build.deploy.identity import decode_statements
from flinkx_build.deploy.identity import encode_statements
from flinkx_build.deploy.identity import fingerprint
from flinkx_build.deploy.identity import job_name
from flinkx_build.deploy.identity import task_of
from flinkx_build.deploy.plan import make_plan
from flinkx_build.deploy.state import DeployedJob
from flinkx_build.deploy.state import DesiredJob

STATEMENTS = [Statement("create_table", "CREATE TEMPORARY TABLE t (a INT) WITH ('password' = '${db_pw}')"),
              Statement("insert", "INSERT INTO s SELECT a FROM t")]


def test_job_names_round_trip_and_ignore_other_workspaces():
    name = job_name("shop", "dws/order_stats")
    assert name == "flinkx:shop/dws/order_stats"
    assert task_of(name, "shop") == "dws/order_stats"
    assert task_of(name, "shop2") is None and task_of("insert-into_default_catalog.x", "shop") is None


def test_statements_survive_the_job_parameter_encoding():
    payload = encode_statements(STATEMENTS)
    assert "," not in payload and ":" not in payload  # safe in any parameter syntax
    assert decode_statements(payload) == STATEMENTS
    assert decode_statements("not base64!") is None


def test_the_fingerprint_follows_the_statements_not_the_secret_values():
    other = [STATEMENTS[0], Statement("insert", "INSERT INTO s SELECT a + 1 FROM t")]
    assert fingerprint(STATEMENTS) == fingerprint(list(STATEMENTS)) != fingerprint(other)


def test_the_fingerprint_ignores_comments_and_layout_but_not_strings():
    commented = [STATEMENTS[0], Statement("insert", "-- why\nINSERT INTO s\n  SELECT a /* the key */ FROM t")]
    assert fingerprint(commented) == fingerprint(STATEMENTS)
    hinted = [STATEMENTS[0], Statement("insert", "INSERT INTO s SELECT /*+ STATE_TTL('t' = '1h') */ a FROM t")]
    assert fingerprint(hinted) != fingerprint(STATEMENTS)  # a hint is not a comment
    spaced = [Statement("create_table", STATEMENTS[0].text.replace("'${db_pw}'", "'${db_pw}  '")), STATEMENTS[1]]
    assert fingerprint(spaced) != fingerprint(STATEMENTS)  # layout inside a string is its value


@pytest.mark.parametrize("text, pair", [
    ("SET 'table.exec.mini-batch.enabled' = 'true'", ("table.exec.mini-batch.enabled", "true")),
    ("SET 'pipeline.name' = 'it''s'", ("pipeline.name", "it's")),
    ("SET parallelism.default = 2", ("parallelism.default", "2")),
    ("SET", None),
    ("SET 'a.b' = 'x' ", ("a.b", "x")),
    ("set\n  a.b=x y", ("a.b", "x y")),
    ("SET 'unterminated = 'x'", None),
    ("SETTING a = b", None),
    # the task's comments above its SET travel with it (issue 46: the SET was dropped)
    ("-- state lives 1 hour\n\nSET 'table.exec.state.ttl' = '1 h'", ("table.exec.state.ttl", "1 h")),
    ("/* a\n block */ -- and a line\nSET a.b = x", ("a.b", "x")),
    ("/* never closed SET a.b = x", None),
    ("-- SET a.b = x", None),
])
def test_set_statements_become_configuration(text, pair):
    assert set_pair(text) == pair


def _desired(statements=tuple(STATEMENTS), key="p/t") -> DesiredJob:
    return DesiredJob(key, "p", job_name("ws", key), "projects/p/tasks/t.sql", tuple(statements), fingerprint(list(statements)),
                      (("projects/p/tables/t.yaml", 4, 3), ("projects/p/tasks/t.sql", 1, 1)))


def test_secrets_are_filled_quoted_and_scrubbed():
    plan = make_plan("ws", "http://x", [_desired()], {}, [], None)
    with pytest.raises(MissingSecret) as missing:
        secret_values(plan, ["db_pw"], env={})
    assert (missing.value.name, missing.value.where) == ("db_pw", "projects/p/tables/t.yaml:4:3")
    values = secret_values(plan, ["db_pw"], env={"DB_PW": "o'neil"})
    assert values == {"db_pw": "o'neil"}
    assert fill(plan.actions[0].desired.statements, values)[0].text.endswith("('password' = 'o''neil')")
    assert scrub("Flink: bad option password=o''neil or o'neil", values) == "Flink: bad option password=*** or ***"


def _job(key: str, state: str, fp: str | None, start: int, job_id: str = "j") -> DeployedJob:
    return DeployedJob(job_id, job_name("ws", key), key, state, start, fp, tuple(STATEMENTS))


def test_the_plan_decides_per_task():
    same, changed, new = _desired(key="p/same"), _desired(key="p/changed", statements=STATEMENTS[:1] + [
        Statement("insert", "INSERT INTO s SELECT 2 FROM t")]), _desired(key="p/new")
    deployed = {
        "p/same": [_job("p/same", "RUNNING", same.fingerprint, 2)],
        "p/changed": [_job("p/changed", "RUNNING", "old", 2)],
        "p/gone": [_job("p/gone", "RUNNING", "x", 2)],
        "p/broken": [_job("p/broken", "FAILED", "x", 3), _job("p/broken", "FINISHED", "x", 1)],
        "q/other": [_job("q/other", "RUNNING", "x", 2)],
    }
    broken = _desired(key="p/broken")
    verdicts = []

    def compile_plan(statements, udfs):
        verdicts.append(statements)
        return _job_of(statements)

    plan = make_plan("ws", "http://x", [same, changed, new, broken], deployed, ["p"], compile_plan)
    assert [(a.action, a.task_key) for a in plan.actions] == [
        ("remove", "p/gone"), ("failed", "p/broken"), ("upgrade", "p/changed"), ("create", "p/new"), ("unchanged", "p/same")]
    upgrade = plan.of("upgrade")[0]
    assert upgrade.verdict == Verdict(RESTORES) and not upgrade.needs_fresh_start and not upgrade.changes_meaning
    assert plan.of("failed")[0].needs_fresh_start
    assert len(verdicts) == 2  # the deployed and the new statements of the one upgrade


def _job_of(statements) -> CompiledJob:
    """A stand-in compiled job: one stateless node per statement, so other SQL is another plan."""
    nodes = [{"id": i, "type": "stream-exec-calc_1", "description": s.text} for i, s in enumerate(statements)]
    return CompiledJob({"flinkVersion": "1.20", "nodes": nodes, "edges": []}, [])


def test_a_verdict_that_does_not_restore_needs_a_fresh_start_and_another_meaning_its_own_flag():
    plan = make_plan("ws", "http://x", [_desired()], {"p/t": [_job("p/t", "RUNNING", "old", 1)]}, [], None)
    (action,) = plan.actions
    assert not action.verdict.restores and action.needs_fresh_start
    action.verdict = Verdict(WILL_NOT_RESTORE)
    assert action.needs_fresh_start and not action.changes_meaning
    action.verdict = Verdict(OTHER_MEANING)
    assert not action.needs_fresh_start and action.changes_meaning


def test_sql_that_compiles_to_the_same_job_is_unchanged():
    deployed = {"p/t": [_job("p/t", "RUNNING", "old", 1)]}  # another fingerprint, the same plan
    plan = make_plan("ws", "http://x", [_desired()], deployed, [], lambda s, u: _job_of(STATEMENTS))
    (action,) = plan.actions
    assert (action.action, action.verdict) == ("unchanged", None)
    assert action.note == "the same job: only comments or layout changed"


def test_workspace_jars_are_names_found_in_the_hosts_jar_folder(tmp_path):
    from flinkx_build.deploy.jars import deploy_jars
    from flinkx_build.errors import UsageError

    jar = tmp_path / "flink-sql-connector-kafka-3.3.0-1.20.jar"
    jar.write_bytes(b"PK")
    assert deploy_jars([jar.name], env={"FLINKX_JAR_DIR": str(tmp_path)}) == [jar.resolve()]
    assert deploy_jars([], env={}) == []
    assert deploy_jars(["ignored.jar"], given=(jar,), env={}) == [jar.resolve()]  # --jar wins
    for names, env, message in [
        (["jars/evil.jar"], {"FLINKX_JAR_DIR": str(tmp_path)}, "FX605 deploy.jars lists jar file names"),
        (["../evil.jar"], {"FLINKX_JAR_DIR": str(tmp_path)}, "FX605 deploy.jars lists jar file names"),
        ([jar.name], {}, "FX605 flinkx.yaml deploy.jars names 1 jar(s): set FLINKX_JAR_DIR"),
        (["missing.jar"], {"FLINKX_JAR_DIR": str(tmp_path)}, "FX605 deploy jar"),
    ]:
        with pytest.raises(UsageError, match=message.replace("(", r"\(").replace(")", r"\)")):
            deploy_jars(names, env=env)


def test_a_job_planned_by_another_flink_version_is_unknown():
    job = DeployedJob("j", job_name("ws", "p/t"), "p/t", "RUNNING", 1, "old", tuple(STATEMENTS), "1.19.3")
    plan = make_plan("ws", "http://x", [_desired()], {"p/t": [job]}, [], lambda s, u: _job_of(s), "1.20.5")
    (action,) = plan.actions
    assert action.verdict.summary == "predicted: unknown: the Flink version changed (1.19.3 -> 1.20.5)"
    assert action.needs_fresh_start
