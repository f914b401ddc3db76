"""FX490-FX492: dead or shadowed settings."""
from __future__ import annotations

GEN = "type: datagen\ncolumns:\n  - {name: a, type: INT}\nwith: {connector: datagen}\n"
OUT = "type: blackhole\ncolumns:\n  - {name: a, type: INT}\nwith: {connector: blackhole}\n"
OFFLINE = "type: odps\nkind: offline\ncolumns:\n  - {name: a, type: INT}\nwith: {connector: odps}\n"


def codes(make_workspace, cli, task: str) -> list[str]:
    ws = make_workspace({
        "projects/p/tables/gen.yaml": GEN, "projects/p/tables/other.yaml": GEN, "projects/p/tables/out.yaml": OUT,
        "projects/p/tables/both.yaml": GEN.replace("type: datagen", "name: both\ntype: datagen"),
        "projects/p/tables/both_offline.yaml": "name: both\n" + OFFLINE,
        "projects/p/tasks/t.sql": task,
    })
    result = cli("lint", str(ws))
    return [line.split()[1] for line in result.stdout.splitlines() if " FX49" in line]


def test_set_on_a_table_the_task_does_not_use(make_workspace, cli):
    assert codes(make_workspace, cli, "SET other.`rows-per-second` = '5';\nINSERT INTO out SELECT a FROM gen;\n") == ["FX490"]


def test_set_on_a_used_table(make_workspace, cli):
    assert codes(make_workspace, cli, "SET gen.`rows-per-second` = '5';\nINSERT INTO out SELECT a FROM gen;\n") == []


def test_hint_that_repeats_the_set(make_workspace, cli):
    task = "SET gen.`rows-per-second` = '5';\nINSERT INTO out SELECT a FROM gen /*+ OPTIONS('rows-per-second' = '5') */;\n"
    assert codes(make_workspace, cli, task) == ["FX491"]
    # a hint that changes the value for its query is what hints are for
    assert codes(make_workspace, cli, task.replace("= '5') */", "= '9') */")) == []


def test_set_is_the_only_mention_of_an_ambiguous_name(make_workspace, cli):
    assert codes(make_workspace, cli, "SET both.`rows-per-second` = '5';\nINSERT INTO out SELECT a FROM gen;\n") == ["FX492"]
    typed = "SET both.tableType = 'DATAGEN';\nSET both.`rows-per-second` = '5';\nINSERT INTO out SELECT a FROM gen;\n"
    assert codes(make_workspace, cli, typed) == ["FX490"]
