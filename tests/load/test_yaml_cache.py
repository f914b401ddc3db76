"""The YAML cache returns what ruamel parsed, positions included, and follows file content."""
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import value_loc


def test_cached_document_keeps_positions_and_follows_content(tmp_path):
    cache = YamlCache(tmp_path / "cache")
    path = tmp_path / "t.yaml"
    path.write_text("type: kafka\nwith:\n  topic: orders\n")
    first, _ = load_yaml(path, "t.yaml", cache)
    assert list((tmp_path / "cache").rglob("*.pickle"))
    second, _ = load_yaml(path, "t.yaml", cache)
    assert second == first and second is not first
    assert value_loc(second["with"], "topic", "t.yaml").line == 3
    path.write_text("type: kafka\nwith:\n\n  topic: refunds\n")
    third, _ = load_yaml(path, "t.yaml", cache)
    assert third["with"]["topic"] == "refunds"
    assert value_loc(third["with"], "topic", "t.yaml").line == 4


def test_broken_yaml_is_not_cached(tmp_path):
    cache = YamlCache(tmp_path / "cache")
    path = tmp_path / "t.yaml"
    path.write_text("columns: [a\n")
    data, errors = load_yaml(path, "t.yaml", cache)
    assert data is None and errors[0].code == "FX101"
    assert not list((tmp_path / "cache").rglob("*.pickle"))
