"""The reserved-word table behind FX01 and the build's quoting: one per Flink version, generated
from that version's SQL parser (scripts/gen_flink_facts.py)."""
from flinkx_build.flink_data import reserved_words


def test_table_holds_the_parsers_keywords_with_levels():
    table = reserved_words("1.20")
    assert len(table) == 744  # Flink 1.20.5's parser: every keyword token
    assert table["VALUE"] == "error" and table["WINDOW"] == "error" and table["COUNT"] == "error"
    assert table["NAME"] == "warning" and table["A"] == "warning"  # keywords Flink accepts bare
    assert "MY_COLUMN" not in table
    assert set(table.values()) == {"error", "warning"}


def test_each_version_has_its_own_table():
    # Flink 2.3's parser (Calcite 1.36) rejects words 1.20 took bare: a column named `qualify` or
    # `monday` must be quoted on 2.3 only
    assert reserved_words("1.20").get("QUALIFY") != "error"
    assert reserved_words("2.3")["QUALIFY"] == "error"
    assert reserved_words("2.3")["MONDAY"] == "error"
