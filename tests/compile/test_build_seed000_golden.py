"""Seed 000's "cross-project reference" and "function" rules, as golden files.

tests/fixtures/seed000 holds the seed's own examples as a workspace; the
expected SQL under seed000.expected/ was read by a person and is what a Flink
user would write by hand. Regenerate with FLINKX_UPDATE_GOLDEN=1 after a
deliberate change, and read the diff.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from click.testing import CliRunner

    from flinkx_build.cli import main

    ws = tmp_path_factory.mktemp("seed") / "seed000"
    shutil.copytree(FIXTURES / "seed000", ws)
    result = CliRunner().invoke(main, ["build", str(ws), "--no-cache"])
    assert result.exit_code == 0, result.output
    return ws / "build"


def golden_files():
    return sorted(p.relative_to(FIXTURES / "seed000.expected").as_posix() for p in (FIXTURES / "seed000.expected").rglob("*.sql"))


@pytest.mark.parametrize("rel", golden_files())
def test_compiled_sql_matches_golden(built, rel):
    actual = (built / rel).read_text()
    expected_path = FIXTURES / "seed000.expected" / rel
    if os.environ.get("FLINKX_UPDATE_GOLDEN"):
        expected_path.write_text(actual)
    assert actual == expected_path.read_text()


def test_every_task_has_a_golden(built):
    produced = sorted(p.relative_to(built).as_posix() for p in built.rglob("*.sql"))
    assert produced == golden_files()


def test_prefixed_function_missing_fails_precompilation(make_workspace, cli):
    # seed 000: "If the custom function is not found under ${project_name}, it will fail during precompilation."
    ws = make_workspace({
        "flinkx.yaml": "variables: {project_name: project_b}\n",
        "projects/project_a/tables/dual.yaml": "columns: [{name: dummy, type: STRING}]\nwith: {connector: datagen}\n",
        "projects/project_b/project.yaml": "description: has no SUBSTRING\n",
        "projects/project_a/tasks/t.sql": "SELECT ${project_name}:SUBSTRING('20200108171740', 1, 8) FROM dual;\n",
    })
    result = cli("build", str(ws))
    assert result.exit_code == 1
    assert result.stdout.strip().endswith("t.sql:1:8: FX140 function 'SUBSTRING' not found in project 'project_b'")


def test_bare_unknown_function_is_an_error(make_workspace, cli):
    ws = make_workspace({
        "projects/a/tables/dual.yaml": "columns: [{name: dummy, type: STRING}]\nwith: {connector: datagen}\n",
        "projects/a/tasks/t.sql": "SELECT SUBSTRNG(dummy, 1, 2) FROM dual;\n",
    })
    result = cli("build", str(ws))
    assert result.exit_code == 1
    assert "t.sql:1:8: FX141 unknown function 'SUBSTRNG'" in result.stdout
    assert "(did you mean 'SUBSTRING'?)" in result.stdout
