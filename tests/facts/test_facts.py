"""facts_for(version): one catalog per Flink version, and what a workspace's flink_version selects."""
from __future__ import annotations

import subprocess
import sys

import pytest

from flinkx_build.flink_data import UnknownFlinkVersion
from flinkx_build.flink_data import facts_for
from flinkx_build.flink_data import quote_identifier
from flinkx_build.flink_data import supported_versions
from tests.helpers import compile_task


def test_supported_versions_are_the_generated_folders():
    assert supported_versions() == ("1.15", "1.20", "2.3")
    assert facts_for("1.20.5").version == "1.20" and facts_for(None).version == "1.20"
    assert facts_for("2.3").full_version == "2.3.0" and facts_for("2.3").previous == "1.20"


def test_an_unknown_version_is_refused():
    with pytest.raises(UnknownFlinkVersion):
        facts_for("1.17")


def test_removed_options_name_the_version_and_the_replacement():
    removed = facts_for("2.3").removed
    assert removed["table.exec.topn-cache-size"].removed_in == "2.0"
    assert removed["table.exec.topn-cache-size"].replacement == "table.exec.rank.topn-cache-size"
    assert removed["table.exec.shuffle-mode"].replacement is None
    assert facts_for("2.3").main_key("table.exec.rank.topn-cache-size") == "table.exec.rank.topn-cache-size"


def test_quoting_follows_the_target():
    assert quote_identifier("monday", "1.20") == "monday"
    assert quote_identifier("monday", "2.3") == "`monday`"
    assert quote_identifier("value", "1.20") == "`value`"


def test_compiled_sql_quotes_the_targets_reserved_words(make_workspace):
    files = {
        "projects/ods/tables/days.yaml": "type: datagen\ncolumns:\n  - {name: id, type: BIGINT}\n  - {name: monday, type: STRING}\nwith: {connector: datagen}\n",
        "projects/ods/tables/out.yaml": "type: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\n  - {name: monday, type: STRING}\nwith: {connector: blackhole}\n",
        "projects/ods/tasks/t.sql": "INSERT INTO out SELECT id, `monday` FROM days;\n",
    }
    old = make_workspace({"flinkx.yaml": 'engine: flink\nflink_version: "1.20"\n', **files}, "w120")
    new = make_workspace({"flinkx.yaml": 'engine: flink\nflink_version: "2.3"\n', **files}, "w23")
    assert "  monday STRING" in compile_task(old, "ods/t")
    assert "  `monday` STRING" in compile_task(new, "ods/t")


def test_unknown_flink_version_is_one_line_at_flinkx_yaml(make_workspace):
    root = make_workspace({"flinkx.yaml": 'engine: flink\nflink_version: "1.17"\n',
                           "projects/ods/tables/t.yaml": "type: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n"})
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", str(root)], capture_output=True, text=True, cwd=root, timeout=300)
    lines = [line for line in (done.stdout + done.stderr).splitlines() if "FX121" in line]
    assert done.returncode == 1
    assert lines == ["flinkx.yaml:2:16: FX121 flink_version '1.17' is not a Flink version flinkx has facts for (supported: 1.15, 1.20, 2.3) "
                     "(use one of them, or add the version's facts (docs/flink-versions.md))"]
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("value, code, exit_code", [('"../../etc"', "FX100", 2), ('"1.20/../../x"', "FX100", 2), ('"9.9"', "FX121", 1)])
def test_flink_version_never_names_a_file(make_workspace, value, code, exit_code):
    """A workspace's flink_version selects one of flinkx's own catalogs or none: a path in it is
    refused as no version (FX100), a version without a catalog is FX121; only data/flink/ is read."""
    root = make_workspace({"flinkx.yaml": f"engine: flink\nflink_version: {value}\n"})
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "lint", str(root)], capture_output=True, text=True, cwd=root, timeout=300)
    assert done.returncode == exit_code and f": {code} " in done.stdout + done.stderr, done.stdout + done.stderr
    with pytest.raises(UnknownFlinkVersion):
        facts_for(value.strip('"'))
