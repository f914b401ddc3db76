"""FX472 / FX473 on the MRS companion workspace (seed 003's DISTRIBUTEBY and source.parallelism)."""
from __future__ import annotations

import shutil

import pytest

from tests.conftest import EXAMPLE

TASK = "projects/dw/tasks/clean_meter_reading.sql"


@pytest.fixture
def mrs(tmp_path):
    root = tmp_path / "mrs"
    shutil.copytree(EXAMPLE / "engines" / "mrs", root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return root


def findings(cli, root, code):
    result = cli("lint", str(root))
    return [line for line in result.stdout.splitlines() if f" {code} " in line]


def test_distributeby_on_an_output_field_is_fine(cli, mrs):
    assert findings(cli, mrs, "FX473") == [] and findings(cli, mrs, "FX472") == []


def test_distributeby_on_a_field_not_in_the_select_list(cli, mrs):
    task = mrs / TASK
    task.write_text(task.read_text().replace("DISTRIBUTEBY('meter_id')", "DISTRIBUTEBY('meter_idd')"))
    (line,) = findings(cli, mrs, "FX473")
    assert "DISTRIBUTEBY('meter_idd') names no field the query outputs (did you mean 'meter_id'?)" in line


def test_distributeby_names_the_alias(cli, mrs):
    task = mrs / TASK
    text = task.read_text().replace("DISTRIBUTEBY('meter_id')", "DISTRIBUTEBY('active_power_kw')")
    task.write_text(text)
    assert findings(cli, mrs, "FX473") == []


def test_source_parallelism_without_distributeby(cli, mrs):
    task = mrs / TASK
    task.write_text(task.read_text().replace("/*+ DISTRIBUTEBY('meter_id') */", ""))
    (line,) = findings(cli, mrs, "FX472")
    assert "ods.ods_meter_reading is read with source.parallelism 4 and no DISTRIBUTEBY" in line
