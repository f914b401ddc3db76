"""Issue 26 item 7: credential keys no list of connector options knows are recognised by their parts.

The hostile workspace writes a PEM key, its passphrase, a schema-registry user-info and a Pulsar
token under keys the old list missed; every output that shows option values must hide them, and
FX480 must flag them in meta tables and in a task-local CREATE TEMPORARY TABLE alike, while a
setting about a credential (`credentials-source: USER_INFO`) is neither masked nor flagged.
"""
from __future__ import annotations

import pytest

from flinkx_build.credentials import is_credential_key

# literal -> where it is written
LITERALS = {
    "UserInfoPw111": "meta table: avro-confluent.basic-auth.user-info",
    "PemKey222": "meta table: properties.ssl.keystore.key (a PEM private key)",
    "Passphrase333": "meta table: properties.ssl.key.passphrase",
    "AuthParams444": "task-local table: pulsar.client.authParams",
}

WORKSPACE = {
    "flinkx.yaml": "engine: flink\n",
    "projects/ods/tables/orders.yaml": """
        type: kafka
        columns:
          - {name: id, type: STRING}
        with:
          connector: kafka
          topic: orders
          format: avro-confluent
          properties.bootstrap.servers: "k:9092"
          avro-confluent.url: "http://registry:8081"
          avro-confluent.basic-auth.credentials-source: USER_INFO
          avro-confluent.basic-auth.user-info: "reg:UserInfoPw111"
          properties.ssl.keystore.key: "-----BEGIN PRIVATE KEY-----PemKey222"
          properties.ssl.key.passphrase: "Passphrase333"
    """,
    "projects/ods/tasks/copy.sql": """
        CREATE TEMPORARY TABLE sink_t (id STRING) WITH (
          'connector' = 'pulsar',
          'topics' = 'out',
          'pulsar.client.authParams' = 'token:AuthParams444'
        );
        INSERT INTO sink_t SELECT id FROM orders;
    """,
}


@pytest.fixture
def ws(make_workspace):
    return make_workspace(WORKSPACE)


def _assert_hidden(text: str, where: str) -> None:
    leaked = [literal for literal in LITERALS if literal in text]
    assert not leaked, f"{where} shows {leaked}"


@pytest.mark.parametrize("key", [
    "avro-confluent.basic-auth.user-info", "basicAuthUserInfo", "pulsar.client.authParams", "properties.ssl.keystore.key",
    "properties.ssl.key.passphrase", "private.key", "ssl.key", "sasl.jaas.config", "http.header.Authorization",
    # issue 41, item 12: words the tables missed
    "db.pass", "auth.bearer", "http.header.Cookie", "oss.sk", "oss.ak", "fs.oss.accessKeyId.ak",
])
def test_keys_named_by_their_parts_are_credentials(key):
    assert is_credential_key(key)


@pytest.mark.parametrize("key", [
    "avro-confluent.basic-auth.credentials-source", "key.fields", "key.format", "key.fields-prefix", "primary-key",
    "bucket-key", "keyspace", "key", "ssl.keystore.type", "ssl.keystore.location", "sasl.oauthbearer.token.endpoint.url",
    "properties.ssl.truststore.certificates", "secrets", "tokenizer",
    "sasl.oauthbearer.expected.audience", "passthrough", "sink.parallelism", "task.ask",
])
def test_settings_about_credentials_and_data_keys_are_not(key):
    assert not is_credential_key(key)


def test_lint_flags_each_literal_in_meta_tables_and_task_local_ddl_and_not_the_setting(ws, cli):
    result = cli("lint", str(ws))
    out = result.stdout + result.stderr
    _assert_hidden(out, "lint")
    flagged = sorted(line.split(": FX480")[0].replace(f"{ws}/", "") for line in result.lines if ": FX480 " in line)
    assert flagged == [
        "projects/ods/tables/orders.yaml:11:40",
        "projects/ods/tables/orders.yaml:12:32",
        "projects/ods/tables/orders.yaml:13:34",
        "projects/ods/tasks/copy.sql:4:32",
    ], result.lines
    assert "credentials-source" not in out, out
    assert result.exit_code == 1


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_explain_hides_every_literal_and_shows_the_setting(ws, cli, fmt):
    (ws / "projects/ods/tasks/copy.sql").write_text("CREATE TEMPORARY TABLE sink_t (id STRING) WITH ('connector' = 'blackhole');\n"
                                                   "INSERT INTO sink_t SELECT id FROM orders;\n")
    result = cli("explain", str(ws), "ods/copy", "--format", fmt)
    out = result.stdout + result.stderr
    assert "avro-confluent.basic-auth.user-info" in out and "USER_INFO" in out, result.lines
    _assert_hidden(out, f"explain --format {fmt}")


@pytest.mark.parametrize("fmt", ["json", "mermaid", "dot"])
def test_graph_hides_every_literal(ws, cli, fmt):
    result = cli("graph", str(ws), "--format", fmt)
    assert "copy" in result.stdout, result.lines
    _assert_hidden(result.stdout + result.stderr, f"graph --format {fmt}")


@pytest.mark.parametrize("fmt", ["human", "json", "sarif", "github"])
def test_messages_quoting_the_ddl_hide_the_literal(ws, cli, fmt):
    # a syntax error makes FX120 quote the statement around the literal
    (ws / "projects/ods/tasks/bad.sql").write_text(
        "CREATE TEMPORARY TABLE b (id STRING) WITH ('pulsar.client.authParams' = 'token:AuthParams444' (;\n")
    result = cli("lint", str(ws), "--format", fmt)
    _assert_hidden(result.stdout + result.stderr, f"lint --format {fmt}")
