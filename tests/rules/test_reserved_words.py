"""The reserved-word table behind FX01."""
import json

from flinkx_rules import reserved


def test_fallback_has_the_documented_list():
    table = reserved.fallback_words()
    assert len(reserved.DOCUMENTED_RESERVED_WORDS) == 553
    assert table.level("value") == "error"
    assert table.level("Window") == "error"
    assert table.level("NAME") == "warning"
    assert table.level("A") == "warning"
    assert table.level("my_column") is None
    errors = {w for w, lvl in table.words.items() if lvl == "error"}
    assert errors == set(reserved.FALLBACK_ERROR_WORDS)
    # Every built-in error word is on the documented list too.
    assert errors <= set(reserved.DOCUMENTED_RESERVED_WORDS)


def test_generated_json_shape_is_read(tmp_path):
    data = {
        "generated_by": "test",
        "flink_version": "1.20.5",
        "words": {"VALUE": "error", "name": "Warning", "ODD": "ignored"},
    }
    path = tmp_path / "flink_reserved_words.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    table = reserved.parse_reserved_json(json.loads(path.read_text()), str(path))
    assert table is not None
    assert table.flink_version == "1.20.5"
    assert table.words == {"VALUE": "error", "NAME": "warning"}


def test_empty_json_falls_back():
    assert reserved.parse_reserved_json({"words": {}}, "x") is None
    assert reserved.parse_reserved_json([], "x") is None


def test_loaded_table_is_usable():
    # The generated file when present (flinkx_build/data), else the fallback.
    table = reserved.load_reserved_words()
    assert table.level("VALUE") == "error"
    assert table.level("COUNT") == "error"
