"""`flinkx build`: options, manifest, quoting, secrets, and what it may write."""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

WS = {
    "flinkx.yaml": "engine: flink\nvariables: {env: prod}\nsecrets: [db_password]\n",
    "projects/ods/tables/events.yaml": """
        type: kafka
        columns:
          - {name: id, type: STRING}
          - {name: value, type: STRING}
          - {name: timestamp, type: "TIMESTAMP(3)"}
        with: {connector: kafka, topic: "events_${env}", properties.bootstrap.servers: "k:9092", format: json}
    """,
    "projects/dwd/tables/events.yaml": """
        type: jdbc
        columns:
          - {name: id, type: STRING}
          - {name: value, type: STRING}
        primary_key: [id]
        with: {connector: jdbc, url: "jdbc:mysql://db:3306/dw", table-name: events, password: "${db_password}"}
    """,
    "projects/dwd/tasks/sync/events.sql": "INSERT INTO events SELECT id, `value` FROM ods.events;\n",
}


def files_under(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def ws(make_workspace):
    return make_workspace(WS)


def test_layout_quoting_and_same_name_tables(ws, cli):
    assert cli("build", str(ws)).exit_code == 0
    sql = (ws / "build" / "dwd" / "sync" / "events.sql").read_text()
    assert "CREATE TEMPORARY TABLE ods_events (\n  id STRING,\n  `value` STRING,\n  `timestamp` TIMESTAMP(3)\n)" in sql
    assert "CREATE TEMPORARY TABLE dwd_events (" in sql
    assert "'topic' = 'events_prod'" in sql
    assert sql.rstrip().endswith("INSERT INTO dwd_events SELECT id, `value` FROM ods_events AS events;")


def test_secrets_stay_placeholders_and_are_never_printed(ws, cli):
    result = cli("build", str(ws))
    sql = (ws / "build" / "dwd" / "sync" / "events.sql").read_text()
    assert "'password' = '${db_password}'" in sql
    assert "db_password" not in result.stdout + result.stderr


def test_manifest(ws, cli):
    cli("build", str(ws))
    manifest = json.loads((ws / "build" / "manifest.json").read_text())
    task = manifest["tasks"]["task.dwd.sync/events"]
    assert task["reads"] == ["table.ods.events"] and task["writes"] == ["table.dwd.events"]
    assert task["compiled"] == "dwd/sync/events.sql"
    assert task["source"].endswith("projects/dwd/tasks/sync/events.sql") and len(task["content_hash"]) == 64
    assert set(manifest["tables"]) == {"table.ods.events", "table.dwd.events"}
    assert manifest["parent_map"]["task.dwd.sync/events"] == ["table.ods.events"]
    assert manifest["child_map"]["task.dwd.sync/events"] == ["table.dwd.events"]


def test_manifest_written_a_node_at_a_time_is_the_whole_json(ws, cli):
    """manifest.json is written in chunks (`writer.manifest_chunks`, for a build's peak memory): its bytes are
    still compact JSON with every key sorted, exactly as encoding the whole manifest at once gives them."""
    from flinkx_build import json_codec
    from flinkx_build.emit.writer import manifest_chunks

    (ws / "projects" / "dwd" / "tasks" / "sync" / "événements.sql").write_text("INSERT INTO events SELECT id, `value` FROM ods.events;\n")
    assert cli("build", str(ws)).exit_code == 0
    written = (ws / "build" / "manifest.json").read_bytes()
    manifest = json_codec.loads(written)
    assert "task.dwd.sync/événements" in manifest["tasks"]
    assert written == json_codec.dumps(manifest, sort_keys=True) + b"\n"
    for odd in ({}, {"a": {}, "b": [], "c": {"z": 1, "é": {"y": 2, "x": 3}}}, {"n": {1: "int key", 2: "x"}}):
        assert b"".join(manifest_chunks(odd)) == json_codec.dumps(odd, sort_keys=True) + b"\n"


def test_check_writes_nothing_and_nothing_is_written_outside_build_and_cache(ws, cli):
    before = files_under(ws)
    result = cli("build", str(ws), "--check")
    assert result.exit_code == 0 and "nothing written" in result.stderr  # the summary is on stderr
    assert {f for f in files_under(ws) - before if not f.startswith(".flinkx-cache/")} == set()
    cli("build", str(ws))
    new = files_under(ws) - before
    assert all(f.startswith(("build/", ".flinkx-cache/")) for f in new), new
    assert not [p for p in ws.parent.iterdir() if p.name.startswith(".build.")]  # no staging left


def test_out_and_project_selection_keep_other_projects(ws, cli, tmp_path):
    out = tmp_path / "elsewhere"
    assert cli("build", str(ws), "--out", str(out)).exit_code == 0
    marker = out / "dwd" / "sync" / "events.sql"
    marker.write_text("-- previous build\n")
    (ws / "projects/ods/tasks").mkdir(parents=True)
    (ws / "projects/ods/tasks/peek.sql").write_text("SELECT id FROM events;\n")
    assert cli("build", str(ws), "--out", str(out), "--project", "ods").exit_code == 0
    assert (out / "ods" / "peek.sql").is_file()
    assert marker.read_text() == "-- previous build\n"  # dwd was not rebuilt, and kept
    result = cli("build", str(ws), "--project", "odz")
    assert result.exit_code == 2 and "unknown project 'odz' (did you mean 'ods'?)" in result.stderr


def test_failed_build_leaves_the_previous_one(ws, cli):
    assert cli("build", str(ws)).exit_code == 0
    before = (ws / "build" / "dwd" / "sync" / "events.sql").read_text()
    (ws / "projects/dwd/tasks/sync/events.sql").write_text("INSERT INTO events SELECT id FROM ods.evnts;\n")
    assert cli("build", str(ws)).exit_code == 1
    assert (ws / "build" / "dwd" / "sync" / "events.sql").read_text() == before
    assert (ws / "build" / "manifest.json").is_file()


def test_cached_build_equals_uncached(ws, cli, tmp_path):
    cli("build", str(ws), "--out", str(tmp_path / "a"))
    cli("build", str(ws), "--out", str(tmp_path / "b"))  # from the parse cache
    cli("build", str(ws), "--out", str(tmp_path / "c"), "--no-cache")
    texts = [(tmp_path / d / "dwd" / "sync" / "events.sql").read_text() for d in "abc"]
    assert texts[0] == texts[1] == texts[2]


def test_parallel_parse_equals_serial(make_workspace):
    from flinkx_build.pipeline import PARALLEL_THRESHOLD
    from flinkx_build.pipeline import Session

    files = dict(WS)
    for n in range(PARALLEL_THRESHOLD + 4):
        files[f"projects/dwd/tasks/many/t{n:02d}.sql"] = f"INSERT INTO events SELECT id, `value` FROM ods.events WHERE id <> '{n}';\n"
    ws = make_workspace(files)
    parallel = Session.open(ws, use_cache=False)
    tasks = parallel.tasks()
    serial = Session.open(ws, use_cache=False)
    with parallel.parsing_ahead(tasks):  # parsed by worker processes, collected on first use
        for task in tasks:
            assert parallel.compiled(task).text == serial.compiled(task).text
            assert [s.to_json() for s in parallel.parsed(task)] == [s.to_json() for s in serial.parsed(task)]


def test_summaries_made_on_every_core_equal_serial_ones(make_workspace):
    """A cold build resolves, checks and compiles in forked workers: the same summaries, and cached."""
    from flinkx_build.pipeline import PARALLEL_THRESHOLD
    from flinkx_build.pipeline import Session

    files = dict(WS)
    for n in range(PARALLEL_THRESHOLD + 4):
        files[f"projects/dwd/tasks/many/t{n:02d}.sql"] = f"INSERT INTO events SELECT id, `value` FROM ods.events WHERE id <> '{n}';\n"
    files["projects/dwd/tasks/many/broken.sql"] = "INSERT INTO events SELECT id, nosuch FROM ods.events;\n"
    ws = make_workspace(files)
    parallel = Session.open(ws)
    tasks = parallel.tasks()
    parallel.summarize_on_every_core(tasks)
    assert not parallel._analysed  # nothing was analysed in this process
    serial = Session.open(ws, use_cache=False)
    made = {task.key: parallel.summary(task) for task in tasks}
    assert made == {task.key: serial.summary(task) for task in tasks}
    assert any(d.code == "FX401" for d in made["dwd/many/broken"].diagnostics)
    again = Session.open(ws)  # the workers filled the cache
    assert all(again.summary_known(task) for task in tasks)


def test_a_summary_made_without_sql_never_serves_a_build(make_workspace):
    """lint, graph and impact need no compiled SQL: what they cache must not stand in for a build's."""
    from flinkx_build.pipeline import Session

    ws = make_workspace(WS)
    lint_side = Session.open(ws)
    lite = {task.key: lint_side.summary(task, compile=False) for task in lint_side.tasks()}
    assert all(s.compiled is None for s in lite.values())
    build_side = Session.open(ws)
    assert all(build_side.cached_summary(task, compiled=False) is not None for task in build_side.tasks())
    full = {task.key: build_side.summary(task) for task in build_side.tasks()}
    assert all(s.compiled for s in full.values() if s.ok) and any(s.ok for s in full.values())
    assert {k: {**asdict(s), "compiled": None} for k, s in full.items()} == {k: asdict(s) for k, s in lite.items()}


def test_task_local_table_shadows_the_meta_table(make_workspace):
    from tests.helpers import compile_task

    ws = make_workspace({
        **WS,
        "projects/dwd/tasks/debug.sql": (
            "CREATE TEMPORARY TABLE events (id STRING, `value` STRING) WITH ('connector' = 'print');\n"
            "INSERT INTO events SELECT id, `value` FROM ods.events;\n"
        ),
    })
    sql = compile_task(ws, "dwd/debug")
    assert "'connector' = 'print'" in sql and "jdbc" not in sql  # dwd.events (jdbc) is not used
    assert "CREATE TEMPORARY TABLE ods_events (" in sql  # renamed: the local name is taken
    assert sql.rstrip().endswith("INSERT INTO events SELECT id, `value` FROM ods_events AS events;")
