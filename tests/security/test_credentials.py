"""Literal credentials never appear in what flinkx prints or writes, except the compiled SQL Flink needs."""
from __future__ import annotations

import json

import pytest

from flinkx_build.cache_root import user_cache_dir
from flinkx_build.credentials import MASK
from flinkx_build.credentials import has_literal_credential
from flinkx_build.credentials import is_credential_key
from flinkx_build.credentials import mask_in_context
from flinkx_build.credentials import mask_text
from flinkx_build.credentials import mask_value
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import UsageError
from flinkx_build.planner.session import open_planner
from flinkx_build.targets import DEFAULT_VERSION
from flinkx_build.validate.contract import ScriptToValidate
from tests.helpers import flink_available
from tests.helpers import session_for
from tests.security.secret_ws import LITERALS
from tests.security.secret_ws import WORKSPACE


@pytest.mark.parametrize("key", [
    "password", "PASSWORD", "connection.password", "passwd", "pwd", "accessKey", "accessId", "access-key",
    "access_key", "access.key", "AccessKeySecret", "secret", "secretKey", "secret-key", "fs.s3a.secret.key",
    "token", "sink.token", "credential", "credentials", "properties.sasl.jaas.config", "privateKey", "api-key",
])
def test_credential_keys(key):
    assert is_credential_key(key)


@pytest.mark.parametrize("key", ["connector", "key.fields", "value.format", "username", "url", "topic", "tableName", "keyby", "primary-key", "secrets"])
def test_ordinary_keys(key):
    assert not is_credential_key(key)


def test_a_jaas_line_masks_only_the_literal_credentials_in_it():
    key = "properties.sasl.jaas.config"
    with_placeholder = "org.apache.kafka.common.security.plain.PlainLoginModule required username='u' password='${pw}';"
    assert mask_value(key, with_placeholder) == with_placeholder
    assert not has_literal_credential(key, with_placeholder)
    literal = "org.apache.kafka.common.security.plain.PlainLoginModule required username='u' password='hunter22';"
    assert mask_value(key, literal) == literal.replace("hunter22", MASK)
    assert has_literal_credential(key, literal)
    assert has_literal_credential("password", "hunter22") and not has_literal_credential("password", "${pw}")
    assert not has_literal_credential("topic", "hunter22")


def test_placeholders_are_shown_literals_are_masked():
    assert mask_value("password", "${db_password}") == "${db_password}"
    assert mask_value("password", " ${a}${b} ") == " ${a}${b} "
    assert mask_value("password", "pre-${a}") == MASK  # part literal: the literal part may be the secret
    assert mask_value("password", "hunter22") == MASK
    assert mask_value("topic", "orders") == "orders"


@pytest.mark.parametrize("text, masked", [
    ("SET t.password = 'hunter22';", "SET t.password = '******';"),
    ("OPTIONS('secret-key'='hunter22', 'topic'='x')", "OPTIONS('secret-key'='******', 'topic'='x')"),
    ("password: hunter22", "password: ******"),
    ('"accessKey": "hunter22"', '"accessKey": "******"'),
    ("cannot parse 'SET t.token = hunter22...'", "cannot parse 'SET t.token = ******'"),
    ("write 'passwd: \"31415\"'", "write 'passwd: \"******\"'"),
    ("'password' = '${db_password}'", "'password' = '${db_password}'"),
    ("'topic' = 'password'", "'topic' = 'password'"),
    ("option 'password' of ods.t cannot be overridden", "option 'password' of ods.t cannot be overridden"),
    ("declare it in flinkx.yaml (secrets: [name])", "declare it in flinkx.yaml (secrets: [name])"),  # names, not values
])
def test_mask_text(text, masked):
    assert mask_text(text) == masked


def test_a_value_quoted_without_its_key_is_masked_from_its_statement():
    statement = "CREATE TABLE t (a INT) WITH ('connector'='print', 'password'=\"hunter22\")"
    message = 'WITH option value "hunter22" must be a single-quoted string'
    assert "hunter22" not in mask_in_context(message, statement)


def test_every_message_and_usage_error_is_masked():
    diag = Diagnostic("t.sql", 1, 1, "FX120", "cannot parse 'SET t.password = hunter22'", "write password: hunter22")
    assert "hunter22" not in diag.format()
    assert "hunter22" not in str(UsageError("bad option password=hunter22"))


@pytest.fixture
def ws(make_workspace):
    return make_workspace(WORKSPACE)


def _assert_no_literal(text: str, where: str) -> None:
    leaked = [lit for lit in LITERALS if lit in text]
    assert not leaked, f"{where} shows {leaked}"


def _task(session):
    return session.workspace.projects["dwd"].tasks["copy_orders"]


def test_build_output_shows_no_literal(ws, cli):
    from flinkx_build.errors import CODES

    result = cli("build", str(ws))
    _assert_no_literal(result.stdout + result.stderr, "build output")
    if "FX480" in CODES:  # the check for literal credentials refuses the build, and says where
        assert result.exit_code == 1 and any("FX480" in line for line in result.lines), result.lines
    else:
        assert result.exit_code == 0, result.lines


def test_compiled_sql_keeps_literals_and_placeholders_and_the_manifest_shows_neither(ws):
    """Flink needs the value: compiled SQL is the one place a literal credential appears."""
    from flinkx_build.emit.manifest import build_manifest
    from flinkx_build.workspace_build.compile_all import compile_workspace

    session = session_for(ws)
    compiled = session.compiled(_task(session)).text
    assert "'password' = 'TablePw4711'" in compiled and "'properties.ssl.keystore.password' = 'SetKeystorePw9931'" in compiled
    assert "'properties.ssl.truststore.password' = '${db_password}'" in compiled  # a declared secret stays a placeholder
    built = compile_workspace(session, [])
    manifest = build_manifest(session.workspace, built.summaries, {"dwd/copy_orders": "dwd/copy_orders.sql"}, built.graph)
    _assert_no_literal(json.dumps(manifest), "manifest.json")


def test_build_folder_is_private_to_its_owner(make_workspace, cli):
    """Compiled SQL may hold literal credentials: the build folder is not readable by others."""
    from tests.emit.test_build_cli import WS

    root = make_workspace(WS, name="clean")
    assert cli("build", str(root)).exit_code == 0
    assert (root / "build").stat().st_mode & 0o077 == 0


def test_explain_masks_literals_and_shows_placeholders(ws):
    from flinkx_build.resolve.explain import explain_data
    from flinkx_build.resolve.explain import render_text

    session = session_for(ws)
    data = explain_data(session.analysed(_task(session)))
    text = render_text(data)
    for shown in (json.dumps(data), text):
        _assert_no_literal(shown, "explain")
        assert MASK in shown and "${db_password}" in shown
    tables = {t["table"]: t for t in data["tables"]}
    options = tables["dwd.orders"]["options"]
    assert options["password"]["value"] == MASK and options["username"]["value"] == "etl"
    ods = tables["ods.orders"]["options"]
    assert ods["properties.ssl.truststore.password"]["value"] == "${db_password}"
    assert ods["properties.ssl.keystore.password"]["value"] == MASK  # from the task's SET


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_explain_command_shows_no_literal(ws, cli, fmt):
    result = cli("explain", str(ws), "dwd/copy_orders", "--format", fmt)
    assert result.lines, "explain printed nothing"
    _assert_no_literal(result.stdout + result.stderr, f"explain --format {fmt}")


@pytest.mark.parametrize("fmt", ["human", "json", "sarif", "github"])
def test_lint_reports_mask_literals(ws, cli, fmt):
    # findings that quote a credential: FX106 (a number as passwd), FX02 (a double-quoted value), FX120 (syntax)
    (ws / "projects/dwd/tasks/leaky.sql").write_text(
        "CREATE TEMPORARY TABLE t (a INT) WITH ('connector'='print', 'password'=\"DoubleQuotedPw808\");\n"
        "INSERT INTO t SELECT 1;\n"
        "SET dwd.orders.password = 'SyntaxPw555' (;\n"
    )
    result = cli("lint", str(ws), "--format", fmt)
    out = result.stdout + result.stderr
    assert "FX106" in out and "FX02" in out and "FX120" in out, out
    _assert_no_literal(out, f"lint --format {fmt}")
    assert "DoubleQuotedPw808" not in out and "SyntaxPw555" not in out, out


@pytest.mark.parametrize("fmt", ["mermaid", "dot", "json"])
def test_graph_shows_no_literal(ws, cli, fmt):
    result = cli("graph", str(ws), "--format", fmt)
    assert "copy_orders" in result.stdout, result.lines
    _assert_no_literal(result.stdout + result.stderr, f"graph --format {fmt}")


def test_caches_are_private_to_their_owner(ws, cli):
    """Caches hold source text (a literal credential included, as in the source file): owner-only files, never printed."""
    cli("lint", str(ws))
    cached = [p for p in (ws / ".flinkx-cache").rglob("*") if p.is_file()]
    assert {p.relative_to(ws / ".flinkx-cache").parts[1] for p in cached if p.parent != ws / ".flinkx-cache"} >= {"parse", "yaml"}  # below the version
    for path in cached:
        assert path.stat().st_mode & 0o077 == 0, path


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "sarif"])
def test_impact_of_a_changed_credential_names_the_option_not_its_values(tmp_path, cli, fmt):
    from tests.graph.gitrepo import repo_with

    repo = repo_with(tmp_path / "repo", {"flinkx.yaml": WORKSPACE["flinkx.yaml"], **{k: v for k, v in WORKSPACE.items() if k != "flinkx.yaml"}})
    repo.edit("projects/dwd/tables/orders.yaml", "TablePw4711", "ChangedPw1234")
    result = cli("impact", str(repo.ws), "--base", "HEAD", "--format", fmt)
    out = result.stdout + result.stderr
    assert "copy_orders" in out or "orders" in out, out
    if fmt != "sarif":  # SARIF lists the impacted tasks; the others also name what changed, by its option key
        assert "password" in out, out
    _assert_no_literal(out, f"impact --format {fmt}")
    assert "ChangedPw1234" not in out


@pytest.mark.flink
def test_validate_output_and_flink_logs_hold_no_literal(ws, cli, monkeypatch):
    if flink_available() is not None:
        pytest.skip(f"Flink unavailable: {flink_available()}")
    result = cli("validate", str(ws))
    assert result.exit_code == 0, result.lines
    _assert_no_literal(result.stdout + result.stderr, "validate output")
    # the warm planner's log, the one file Flink's JVM writes: every task planned through the service
    monkeypatch.setenv("FLINKX_PLANNER_IDLE_SECONDS", "20")
    session = session_for(ws)
    with open_planner(DEFAULT_VERSION, fetch=False, warm=True) as planner:
        for task in session.workspace.all_tasks():
            script = session.compiled(task)
            found = planner.validate(ScriptToValidate(script.key, "x.sql", tuple(script.statements), tuple(script.udfs)))
            _assert_no_literal(" ".join(f.message for f in found), f"the planner's findings on {task.key}")
    logs = [p for p in (user_cache_dir() / "planner").glob("*.log") if p.is_file()]
    assert logs, "the planner wrote no log: nothing was checked"
    for path in logs:
        _assert_no_literal(path.read_text(errors="replace"), str(path))


