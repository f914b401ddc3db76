"""A reserved word where a table is named, and no table has that name: unknown table first (issue 44 case 8)."""
from __future__ import annotations

from tests.helpers import edited_example
from tests.helpers import one_verdict

SYNC = "projects/dim/tasks/sync_dim_user.sql"


def test_ods_user_for_ods_users_is_an_unknown_table_not_a_word_to_quote(cli, tmp_path):
    ws = edited_example(tmp_path, [(SYNC, "FROM ods.users;", "FROM ods.user;")])
    line = f"{SYNC}:28:10: FX130 unknown table 'user' in project 'ods' (did you mean 'users'?)"
    assert one_verdict(cli, ws) == [line]
    fixed = cli("fix", ".", cwd=ws)  # `fix` quoted it, and only then did FX130 suggest `users`
    assert (ws / SYNC).read_text(encoding="utf-8").rstrip().endswith("FROM ods.user;")
    assert [l for l in fixed.stdout.splitlines() if l.strip()] == [line]


def test_a_reserved_word_that_is_a_tables_name_is_still_quoted(cli, make_workspace):
    ws = make_workspace({
        "projects/ods/project.yaml": "name: ods\n",
        "projects/ods/tables/user.yaml": ("name: user\ntype: datagen\nkind: stream\ncolumns:\n  - {name: id, type: BIGINT}\n"
                                          "with:\n  connector: datagen\n"),
        "projects/ods/tables/sink.yaml": ("name: sink\ntype: print\nkind: stream\ncolumns:\n  - {name: id, type: BIGINT}\n"
                                          "with:\n  connector: print\n"),
        "projects/ods/tasks/copy.sql": "INSERT INTO sink\nSELECT id FROM ods.user;\n",
    })
    lines = one_verdict(cli, ws)
    assert [l.split(": ", 2)[1].split()[0] for l in lines] == ["FX01"], lines
    assert cli("fix", ".", cwd=ws).exit_code == 0
    assert "FROM ods.`user`;" in (ws / "projects/ods/tasks/copy.sql").read_text(encoding="utf-8")
