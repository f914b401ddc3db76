""".pre-commit-hooks.yaml: its definitions, and the hooks on the example workspace.

The manifest is checked with pre-commit's own loader. The hook runs use a
.pre-commit-config.yaml whose `repo:` is the snapshot of this checkout: the
same manifest and the same pip-installed environment as try-repo, built once
per session in PRE_COMMIT_HOME, so these runs take about a second each.
(The example workspace's clean commit runs through try-repo, in
test_precommit_try_repo.py.)
"""
from __future__ import annotations

import re

import pytest
from pchelpers import EXAMPLE
from pchelpers import HOOK_IDS
from pchelpers import REPO
from pchelpers import Expected
from pchelpers import config_text
from pchelpers import failed
from pchelpers import has_line
from pchelpers import position

pytest.importorskip("pre_commit", reason="pre-commit is not installed (pip install -e '.[test]')")
from identify.identify import tags_from_filename  # noqa: E402 (pre-commit's own dependency)
from pre_commit.clientlib import load_manifest  # noqa: E402

MANIFEST = REPO / ".pre-commit-hooks.yaml"


@pytest.fixture(scope="module")
def hooks() -> dict[str, dict]:
    return {hook["id"]: hook for hook in load_manifest(str(MANIFEST))}


def selected(hook: dict, path: str) -> bool:
    """Whether pre-commit would pass `path` to the hook (files, exclude, types_or)."""
    tags = tags_from_filename(path) | {"file"}  # a regular file, as pre-commit tags it
    return (
        re.search(hook["files"], path) is not None
        and not re.search(hook["exclude"], path)
        and bool(tags & set(hook["types_or"]))
        and set(hook["types"]) <= tags
    )


def test_manifest_is_valid_and_complete(hooks):
    assert set(HOOK_IDS) <= set(hooks)
    for hook_id in HOOK_IDS:
        hook = hooks[hook_id]
        assert hook["language"] == "python"
        assert hook["entry"].split()[0] == "flinkx"
        assert hook["types_or"] == ["sql", "yaml"]
        assert hook["require_serial"] is True, "one process sees all files of a workspace"
    assert hooks["flinkx-lint"]["entry"] == "flinkx lint"
    assert hooks["flinkx-fix"]["entry"] == "flinkx fix"
    assert hooks["flinkx-build"]["entry"] == "flinkx build --check"
    assert hooks["flinkx-build"]["pass_filenames"] is False
    assert hooks["flinkx-build"]["args"] == ["."]
    assert hooks["flinkx-lint"]["pass_filenames"] is True


@pytest.mark.parametrize(
    "path, wanted",
    [
        ("flinkx.yaml", True),
        ("warehouse/flinkx.yaml", True),
        ("projects/ods/tasks/a.sql", True),
        ("projects/ods/tasks/deep/er/a.sql", True),
        ("projects/ods/tables/t.yaml", True),
        ("projects/ods/tables/t.yml", True),
        ("projects/ods/project.yaml", True),
        ("projects/dim/functions/f.yaml", True),
        ("warehouse/projects/ods/tasks/a.sql", True),
        ("projects/ods/README.md", False),
        ("projects/ods/tasks/a.sql.bak", False),
        ("build/ods/a.sql", False),
        ("warehouse/build/manifest.json", False),
        (".pre-commit-config.yaml", False),
        ("sql/adhoc.sql", False),
        ("myprojects/x/a.sql", False),
        ("not-flinkx.yaml", False),
    ],
)
def test_files_selected(hooks, path, wanted):
    for hook_id in HOOK_IDS:
        assert selected(hooks[hook_id], path) is wanted, (hook_id, path)


def _broken_example(repo, ws: str) -> list[Expected]:
    """FX01, FX02 and FX130 written into the example workspace's own tasks."""
    peek = f"{ws}/projects/ods/tasks/debug/peek_order_events.sql"
    text = repo.replace(peek, "'connector' = 'print'", "'connector' = \"print\"")
    fx02 = Expected(peek, *position(text, '"print"'), "FX02")
    sync = f"{ws}/projects/dwd/tasks/orders/sync_orders.sql"
    text = repo.replace(sync, "AS pay_channel", "AS value")
    line, col = position(text, "AS value")
    fx01 = Expected(sync, line, col + 3, "FX01")
    replay = f"{ws}/projects/dwd/tasks/orders/replay_orders.sql"
    sql = "-- replay old orders (the table does not exist)\nINSERT INTO orders\nSELECT * FROM ods.orders_history;\n"
    repo.write(replay, sql)
    fx130 = Expected(replay, *position(sql, "ods.orders_history"), "FX130")
    return [fx01, fx02, fx130]


def test_example_workspace_broken_commit(make_repo, installed_hooks):
    ws = "example-workspace"
    repo = make_repo(EXAMPLE, subdir=ws, config=config_text(installed_hooks, [{"id": "flinkx-lint"}]))
    expected = _broken_example(repo, ws)
    repo.git("add", "-A")

    result = repo.run("pre-commit", "run", "flinkx-lint", label="pre-commit run flinkx-lint (example, 3 staged files)")

    assert result.returncode == 1, result.describe()
    assert failed(result, "flinkx lint")
    for exp in expected:
        assert has_line(result, exp.prefix), f"missing {exp.prefix!r}:\n{result.describe()}"
    # only the staged files are reported: the rest of the workspace is context
    paths = {line.split(":", 1)[0] for line in result.lines if re.match(r"^\S+:\d+:\d+: FX", line)}
    assert paths == {e.path for e in expected}, paths


def test_yaml_files_are_linted_on_their_own(make_repo, installed_hooks):
    repo = make_repo(config=config_text(installed_hooks, [{"id": "flinkx-lint"}, {"id": "flinkx-build"}]))
    table = "projects/ods/tables/order_events.yaml"
    text = repo.replace(table, "{name: channel, type: STRING}", "{name: channel, type: STRNG}")
    project = repo.replace("projects/ods/project.yaml", "description:", "owner: data-team\ndescription:")
    repo.replace("flinkx.yaml", "env: test", "env: staging")
    repo.git("add", "-A")

    result = repo.run("pre-commit", "run", label="pre-commit run (3 YAML files staged)")

    assert failed(result, "flinkx lint"), result.describe()
    line, col = position(text, "STRNG")
    assert has_line(result, f"{table}:{line}:{col}: FX107 "), result.describe()
    line, col = position(project, "owner")
    assert has_line(result, f"projects/ods/project.yaml:{line}:{col}: FX103 unknown key 'owner' in project.yaml"), result.describe()
    assert failed(result, "flinkx build --check")


def test_invalid_flinkx_yaml_is_a_usage_error(make_repo, installed_hooks):
    repo = make_repo(config=config_text(installed_hooks, [{"id": "flinkx-lint"}]))
    text = repo.replace("flinkx.yaml", "mode: stream", "mode: streaming")
    repo.git("add", "-A")
    result = repo.run("pre-commit", "run", label="pre-commit run flinkx-lint (invalid flinkx.yaml)")
    assert failed(result, "flinkx lint") and "- exit code: 2" in result.output, result.describe()
    assert "flinkx: error: invalid flinkx.yaml" in result.output
    line, col = position(text, "streaming")
    assert has_line(result, f"flinkx.yaml:{line}:{col}: FX100 mode must be one of"), result.describe()


def test_unrelated_commit_skips_the_hooks(make_repo, installed_hooks):
    repo = make_repo(config=config_text(installed_hooks))
    repo.write("README.md", "# shop\n")
    repo.write("scripts/adhoc.sql", "SELECT value FROM nowhere;\n")
    repo.git("add", "-A")
    result = repo.run("pre-commit", "run", label="pre-commit run (no workspace file staged)")
    assert result.returncode == 0, result.describe()
    assert result.output.count("(no files to check)Skipped") == 3, result.describe()
