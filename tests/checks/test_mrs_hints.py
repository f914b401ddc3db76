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


VIEW_TASK = "projects/dw/tasks/station_load_5m.sql"


def _over_a_view(root, extra_column: str = ""):
    """The windowed query reads a view of dwd_meter_reading instead of the table itself."""
    task = root / VIEW_TASK
    text = task.read_text()
    view = ("CREATE TEMPORARY VIEW readings AS\nSELECT station_id, meter_id, active_power_kw, voltage_v, read_time" + extra_column
            + "\nFROM dwd_meter_reading;\n\nINSERT INTO dws_station_load_5m")
    text = text.replace("INSERT INTO dws_station_load_5m", view, 1).replace("TUMBLE(TABLE dwd_meter_reading,", "TUMBLE(TABLE readings,")
    task.write_text(text)


def test_late_data_sink_over_a_view_with_the_same_fields(cli, mrs):
    _over_a_view(mrs)
    assert [l for l in findings(cli, mrs, "FX151") if "late-data sink" in l] == []


def test_late_data_sink_over_a_view_that_reads_another_field(cli, mrs):
    _over_a_view(mrs, ", current_a")
    task = mrs / VIEW_TASK
    task.write_text(task.read_text().replace("MIN(voltage_v)           AS min_voltage_v", "MIN(voltage_v + current_a) AS min_voltage_v"))
    (line,) = [l for l in findings(cli, mrs, "FX151") if "late-data sink" in l]
    assert "must hold the window's input fields: missing current_a" in line
