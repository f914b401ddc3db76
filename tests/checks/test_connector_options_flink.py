"""FX420/FX421 agree with Flink 1.20 for the connectors in Flink's own jars.

Each case is a task of one workspace. flinkx's finding is compared with what Flink's own factories
say about the compiled task, planned with the real connectors (not validate's stand-in, which
accepts every option): "Unsupported options found" exactly where flinkx reports FX420 as an error,
"Missing required options" where it reports FX421 (a warning: a data source may fill it in), and Flink planning the task where flinkx is
silent or only warns.
"""
from __future__ import annotations

import pytest

from tests.facts.verdict import verdicts
from tests.helpers import session_for

TABLES = {
    "projects/p/tables/gen.yaml": """
        name: gen
        type: datagen
        columns:
          - {name: id, type: BIGINT}
          - {name: name, type: STRING}
        with:
          connector: datagen
          rows-per-second: "5"
          fields.id.kind: sequence
          fields.id.start: "1"
          fields.id.end: "100"
    """,
    "projects/p/tables/arch.yaml": """
        name: arch
        type: filesystem
        columns:
          - {name: id, type: BIGINT}
          - {name: name, type: STRING}
        with:
          connector: filesystem
          path: /nonexistent/arch
          format: json
          json.ignore-parse-errors: "true"
    """,
    "projects/p/tables/nopath.yaml": """
        name: nopath
        type: filesystem
        columns:
          - {name: id, type: BIGINT}
          - {name: name, type: STRING}
        with:
          connector: filesystem
          format: csv
    """,
    "projects/p/tables/out.yaml": """
        name: out
        type: print
        columns:
          - {name: id, type: BIGINT}
          - {name: name, type: STRING}
        with:
          connector: print
          print-identifier: flinkx
    """,
    "projects/p/tables/hole.yaml": """
        name: hole
        type: blackhole
        columns:
          - {name: id, type: BIGINT}
          - {name: name, type: STRING}
        with:
          connector: blackhole
    """,
}

# name -> (task SQL, the finding flinkx must report: (code, severity) or None, Flink's verdict)
CASES: dict[str, tuple[str, tuple[str, str] | None, str | None]] = {
    "datagen_known": ("SET gen.`number-of-rows` = '10';\nINSERT INTO hole SELECT id, name FROM gen;", None, None),
    "datagen_set_typo": ("SET gen.`rows-per-secnd` = '10';\nINSERT INTO hole SELECT id, name FROM gen;",
                         ("FX420", "error"), "Unsupported options"),
    "datagen_field_typo": ("SET gen.`fields.id.kindd` = 'random';\nINSERT INTO hole SELECT id, name FROM gen;",
                           ("FX420", "error"), "Unsupported options"),
    "datagen_field_of_no_column": ("SET gen.`fields.nosuch.kind` = 'random';\nINSERT INTO hole SELECT id, name FROM gen;",
                                   ("FX420", "error"), "Unsupported options"),
    "datagen_hint_typo": ("INSERT INTO hole SELECT id, name FROM gen /*+ OPTIONS('rows-per-secnd'='9') */;",
                          ("FX420", "error"), "Unsupported options"),
    "datagen_hint_known": ("INSERT INTO hole SELECT id, name FROM gen /*+ OPTIONS('rows-per-second'='9') */;", None, None),
    "filesystem_known": ("SET arch.`source.monitor-interval` = '1 min';\nINSERT INTO hole SELECT id, name FROM arch;", None, None),
    "filesystem_typo": ("SET arch.`source.monitor-intervall` = '1 min';\nINSERT INTO hole SELECT id, name FROM arch;",
                        ("FX420", "error"), "Unsupported options"),
    "filesystem_helper_option": ("SET arch.`scan.watermark.idle-timeout` = '1 s';\nINSERT INTO hole SELECT id, name FROM arch;", None, None),
    "filesystem_other_format_key": ("SET arch.`csv.field-delimiter` = ';';\nINSERT INTO hole SELECT id, name FROM arch;",
                                    ("FX420", "error"), "Unsupported options"),
    "filesystem_format_key_ignored": ("SET arch.`json.ignore-parse-error` = 'true';\nINSERT INTO hole SELECT id, name FROM arch;",
                                      ("FX420", "warning"), None),
    "filesystem_without_path": ("INSERT INTO hole SELECT id, name FROM nopath;", ("FX421", "warning"), "Missing required options"),
    "filesystem_path_by_set": ("SET nopath.path = '/nonexistent/x';\nINSERT INTO hole SELECT id, name FROM nopath;", None, None),
    "print_known": ("SET `out`.`standard-error` = 'true';\nINSERT INTO `out` SELECT id, name FROM gen;", None, None),
    "print_typo": ("INSERT INTO `out` /*+ OPTIONS('print-identifer'='x') */ SELECT id, name FROM gen;",
                   ("FX420", "error"), "Unsupported options"),
    "blackhole_any_key": ("SET hole.`sink.parallelism` = '2';\nINSERT INTO hole SELECT id, name FROM gen;",
                          ("FX420", "error"), "Unsupported options"),
}


def planned_statements(session, task) -> list[str]:
    """The compiled task as Flink itself plans it: its tables with the real connectors, then its INSERT."""
    return [s.text for s in session.compiled(task).statements if s.kind in ("create_table", "insert", "select")]


@pytest.fixture(scope="module")
def judged(tmp_path_factory):
    from tests.conftest import write_tree

    files = {"flinkx.yaml": "engine: flink\n", **TABLES}
    files.update({f"projects/p/tasks/{name}.sql": sql + "\n" for name, (sql, _, _) in CASES.items()})
    root = write_tree(tmp_path_factory.mktemp("agreement"), files)
    session = session_for(root)
    assert [d.format() for d in session.load_diagnostics if d.code.startswith("FX42")] == []
    found, cases = {}, {}
    for name in CASES:
        task = session.workspace.projects["p"].tasks[name]
        found[name] = [(d.code, d.severity) for d in session.analysed(task).diagnostics if d.code.startswith("FX42")]
        cases[name] = planned_statements(session, task)
    flink = verdicts("1.20", cases)
    return {name: (found[name], [] if flink[name] == "OK" else [flink[name]]) for name in CASES}


@pytest.mark.flink
@pytest.mark.parametrize("name", sorted(CASES))
def test_flinkx_and_flink_agree(judged, name):
    _, expected, verdict = CASES[name]
    found, flink_says = judged[name]
    assert found == ([expected] if expected else [])
    if verdict is None:
        assert flink_says == [], flink_says
    else:
        assert any(verdict in message for message in flink_says), flink_says


@pytest.mark.flink
def test_the_generated_lists_are_what_flink_says():
    """The built-in connectors' and formats' entries of the data file are exactly what
    scripts/gen_connector_options.py reads from this Flink: regenerate them when Flink moves."""
    import importlib.util
    import json

    from flinkx_build.connectors import DATA
    from tests.conftest import REPO
    from tests.facts.jars import flink_lib

    spec = importlib.util.spec_from_file_location("gen_connector_options", REPO / "scripts" / "gen_connector_options.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    data = json.loads(DATA.read_text(encoding="utf-8"))
    said = gen.flink_says(flink_lib("1.20"))
    connectors, formats = gen.generated_entries(said, data["flink_version"])
    assert {name: data["connectors"][name] for name in connectors} == connectors
    assert {name: data["formats"][name] for name in formats} == formats
    assert gen.helper_options(said) == data["helper_options"]
