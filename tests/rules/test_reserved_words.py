"""The reserved-word table behind FX01 and the build's quoting: one file, generated from Flink."""
from flinkx_build.flink_data import reserved_words


def test_table_covers_the_documented_list_with_levels():
    table = reserved_words()
    assert len(table) == 553  # seed 001's documented list
    assert table["VALUE"] == "error" and table["WINDOW"] == "error" and table["COUNT"] == "error"
    assert table["NAME"] == "warning" and table["A"] == "warning"  # Flink accepts these bare
    assert "MY_COLUMN" not in table
    assert set(table.values()) == {"error", "warning"}
