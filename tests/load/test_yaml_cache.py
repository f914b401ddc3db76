"""The YAML cache: JSON data with positions, used only when its format, key and hash check out."""
import json
import math
import os
import pickle

from flinkx_build.load.yaml_cache import FORMAT
from flinkx_build.load.yaml_cache import VERSION
from flinkx_build.load.yaml_io import YamlCache
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.load.yaml_io import value_loc
from tests.conftest import EXAMPLE


def test_cached_document_keeps_positions_and_follows_content(tmp_path):
    cache = YamlCache(tmp_path / "cache")
    path = tmp_path / "t.yaml"
    path.write_text("type: kafka\nwith:\n  topic: orders\n")
    first, _ = load_yaml(path, "t.yaml", cache)
    entries = list((tmp_path / "cache").rglob("*.json"))
    assert len(entries) == 1 and not list((tmp_path / "cache").rglob("*.pickle"))
    entry = json.loads(entries[0].read_text())
    assert entry["format"] == FORMAT and entry["version"] == VERSION
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
    assert not list((tmp_path / "cache").rglob("*.json"))


def test_a_document_with_a_float_that_is_not_finite_is_not_cached(tmp_path):
    """The cache's JSON writes NaN as null (json_codec.py): such a document is parsed each time instead."""
    cache = YamlCache(tmp_path / "cache")
    path = tmp_path / "t.yaml"
    path.write_text("with:\n  a: .nan\n  b: .inf\n")
    first, _ = load_yaml(path, "t.yaml", cache)
    assert not list((tmp_path / "cache").rglob("*.json"))
    second, _ = load_yaml(path, "t.yaml", cache)
    assert math.isnan(second["with"]["a"]) and math.isinf(second["with"]["b"]) and math.isnan(first["with"]["a"])


def test_every_example_file_reads_back_from_the_cache_exactly(tmp_path):
    """Cached or not, callers see the same values and the same positions."""
    files = sorted(EXAMPLE.rglob("*.yaml"))
    assert len(files) > 20
    for path in files:
        fresh, errors = load_yaml(path, path.name)
        assert not errors, errors
        cache = YamlCache(tmp_path / "c")
        load_yaml(path, path.name, cache)
        cached, _ = load_yaml(path, path.name, cache)
        assert cached == fresh
        assert _positions(cached, path.name) == _positions(fresh, path.name)


def _positions(node, shown):
    out = []
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((key, key_loc(node, key, shown), value_loc(node, key, shown)))
            out.extend(_positions(value, shown))
    elif isinstance(node, list):
        for item in node:
            out.extend(_positions(item, shown))
    return out


def _entry_path(tmp_path, raw: bytes):
    cache = YamlCache(tmp_path / "cache")
    key = cache.key(raw)
    return cache, tmp_path / "cache" / "yaml" / key[:2] / f"{key}.json"


def test_a_tampered_or_foreign_entry_is_ignored_and_rebuilt(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("type: kafka\n")
    cache, entry_path = _entry_path(tmp_path, path.read_bytes())
    load_yaml(path, "t.yaml", cache)
    entry = json.loads(entry_path.read_text())
    entry["data"]["map"][0][1] = "jdbc"  # content changed, hash not: corrupt
    entry_path.write_text(json.dumps(entry))
    data, _ = load_yaml(path, "t.yaml", cache)
    assert data["type"] == "kafka"
    assert json.loads(entry_path.read_text())["data"]["map"][0][1] == "kafka"  # rebuilt
    for foreign in (b"\x80\x04K\x01.", b"{not json", b"[]", json.dumps({**entry, "version": 1}).encode(),
                    json.dumps({**entry, "key": "0" * 64}).encode()):
        entry_path.write_bytes(foreign)
        data, errors = load_yaml(path, "t.yaml", cache)
        assert data["type"] == "kafka" and not errors


class _Plant:
    """A pickle that would create a marker file when unpickled."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (str(self.marker),))


def test_a_planted_pickle_never_runs(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("type: kafka\n")
    marker = tmp_path / "pwned"
    cache, entry_path = _entry_path(tmp_path, path.read_bytes())
    entry_path.parent.mkdir(parents=True)
    payload = pickle.dumps(_Plant(marker))
    entry_path.write_bytes(payload)
    entry_path.with_suffix(".pickle").write_bytes(payload)  # where the pickle cache kept it
    data, _ = load_yaml(path, "t.yaml", cache)
    assert data["type"] == "kafka"
    assert not marker.exists()


def test_a_cache_folder_that_is_a_symlink_out_is_never_written(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "ws").mkdir()
    cache_root = tmp_path / "ws" / ".flinkx-cache"
    cache_root.mkdir()
    (cache_root / "yaml").symlink_to(outside)
    path = tmp_path / "ws" / "t.yaml"
    path.write_text("type: kafka\n")
    data, _ = load_yaml(path, "t.yaml", YamlCache(cache_root))  # its yaml/ folder is the planted link
    assert data["type"] == "kafka"
    assert list(outside.iterdir()) == []
