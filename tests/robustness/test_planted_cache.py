"""A cache folder committed in a pull request cannot run code or change what flinkx sees."""
from __future__ import annotations

import hashlib
import os
import pickle
import shutil
from pathlib import Path

from flinkx_build.load.yaml_cache import YamlCache
from flinkx_build.cache_version import versioned_cache_root
from tests.robustness.test_corpus import HERE


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # unpickling this creates the marker folder
        return (os.mkdir, (str(self.marker),))


def _plant(ws: Path, marker: Path) -> int:
    """A malicious pickle and a malformed JSON under every name the caches could look for."""
    payload = pickle.dumps(_Payload(marker))
    cache = versioned_cache_root(ws, ".flinkx-cache")
    planted = 0
    for path in sorted(ws.rglob("*.yaml")):
        key = YamlCache(cache / "yaml").key(path.read_bytes())
        folder = cache / "yaml" / key[:2]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{key}.pickle").write_bytes(payload)  # the old format's file name
        (folder / f"{key}.json").write_bytes(payload)
        planted += 1
    for path in sorted(ws.rglob("*.sql")):  # parse cache names are content hashes too: plant plausible ones
        key = hashlib.sha256(path.read_bytes()).hexdigest()
        folder = cache / "parse" / key[:2]
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{key}.json").write_text('{"format": "flinkx-parse-cache", "version": 2, "data": [')
        planted += 1
    return planted


def test_planted_pickles_and_broken_json_never_run_and_are_replaced(cli, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(HERE / "base", ws)
    marker = tmp_path / "pwned"
    assert _plant(ws, marker) >= 8
    result = cli("lint", ".", cwd=ws)
    assert result.exit_code == 0, result.lines
    build = cli("build", ".", cwd=ws)
    assert build.exit_code == 0, build.lines
    assert not marker.exists()
    # the entries of the files it caches (flinkx.yaml is never cached) are now its own JSON
    for path in sorted((ws / "projects").rglob("*.yaml")):
        key = YamlCache(versioned_cache_root(ws, ".flinkx-cache") / "yaml").key(path.read_bytes())
        entry = versioned_cache_root(ws, ".flinkx-cache") / "yaml" / key[:2] / f"{key}.json"
        assert entry.read_bytes().startswith(b'{"format":"flinkx-yaml-cache"'), path
