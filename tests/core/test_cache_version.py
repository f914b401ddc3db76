"""The one code-version key of every cache (`flinkx_build/cache_version.py`, issue 27 item 2).

Real processes of a copied flinkx, real files; no mocks.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import flinkx_build
from flinkx_build.cache_entries import write_entry
from flinkx_build.cache_prune import prune
from flinkx_build.cache_version import compute_code_version
from flinkx_build.cache_version import environment
from flinkx_build.cache_version import package_files
from flinkx_build.cache_version import stat_key

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "example-workspace"
KINDS = ("yaml", "load", "parse", "summaries", "runs")


def _copy_flinkx(into: Path) -> Path:
    """This flinkx and its sqlfluff rules, copied, so a test may edit its data files."""
    package = Path(flinkx_build.__file__).resolve().parent
    shutil.copytree(package, into / "flinkx_build", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "rules", into / "rules", ignore=shutil.ignore_patterns("__pycache__"))
    return into


def _build(code: Path, ws: Path, home: Path) -> None:
    env = {**os.environ, "PYTHONPATH": f"{code}{os.pathsep}{code / 'rules'}", "FLINKX_HOME": str(home)}
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "build", "."], cwd=ws, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def _entries_by_kind(ws: Path) -> dict[str, set[Path]]:
    found: dict[str, set[Path]] = {kind: set() for kind in KINDS}
    for path in (ws / ".flinkx-cache").rglob("*.json"):
        for kind in KINDS:
            if kind in path.relative_to(ws).parts:
                found[kind].add(path)
    return found


def test_a_changed_data_file_makes_every_cache_miss(tmp_path):
    # Before: the parse cache keyed on a hand list of front-end files and the load memo on another,
    # so a regenerated data/flink_reserved_words.json left both serving what the old data made.
    code, ws, home = _copy_flinkx(tmp_path / "code"), tmp_path / "ws", tmp_path / "home"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    _build(code, ws, home)
    before = _entries_by_kind(ws)
    assert all(before[kind] for kind in KINDS), {k: len(v) for k, v in before.items()}
    built = {p.relative_to(ws / "build"): p.read_bytes() for p in (ws / "build").rglob("*.sql")}

    data = code / "flinkx_build" / "data" / "flink_reserved_words.json"
    words = json.loads(data.read_text(encoding="utf-8"))
    data.write_text(json.dumps(words, indent=1) + "\n", encoding="utf-8")  # the same facts, new bytes: a regeneration
    _build(code, ws, home)

    after = _entries_by_kind(ws)
    for kind in KINDS:  # every cache wrote anew: none served an entry of the old code
        assert after[kind] - before[kind], f"the {kind} cache served entries made by the old data file"
    assert {p.relative_to(ws / "build"): p.read_bytes() for p in (ws / "build").rglob("*.sql")} == built


def test_every_cache_lives_below_one_version_folder(tmp_path):
    code, ws, home = _copy_flinkx(tmp_path / "code"), tmp_path / "ws", tmp_path / "home"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    _build(code, ws, home)
    folders = [p for p in (ws / ".flinkx-cache").iterdir() if p.is_dir()]
    assert len(folders) == 1 and len(folders[0].name) == 16, folders
    assert {p.name for p in folders[0].iterdir()} >= set(KINDS)


def _package(tmp_path: Path) -> Path:
    folder = tmp_path / "pkg"
    (folder / "data").mkdir(parents=True)
    (folder / "mod.py").write_text("X = 1\n")
    (folder / "data" / "facts.json").write_text("[1]\n")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\0" * 8)
    return folder


def test_the_version_follows_every_file_and_only_files(tmp_path, monkeypatch):
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    folder, store = _package(tmp_path), tmp_path / "home" / "code-version"
    first = compute_code_version([folder], store)
    assert compute_code_version([folder], store) == first  # read back by the files' stats
    assert list(store.rglob("*.json")), "the hash was not stored"
    (folder / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"\1" * 8)  # compiled files are not code
    assert compute_code_version([folder], store) == first
    (folder / "data" / "new_version.json").write_text("{}\n")  # a data file no list names
    added = compute_code_version([folder], store)
    assert added != first
    data = folder / "data" / "facts.json"
    data.write_text("[2]\n")
    os.utime(data, ns=(data.stat().st_atime_ns, data.stat().st_mtime_ns + 1_000_000))
    assert compute_code_version([folder], store) not in (first, added)


def test_a_planted_version_entry_is_not_believed(tmp_path, monkeypatch):
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    folder, store = _package(tmp_path), tmp_path / "home" / "code-version"
    true_version = compute_code_version([folder], None)  # nothing stored: hashed
    key = stat_key(package_files([folder]), environment())
    planted = store / key[:2] / f"{key}.json"
    planted.parent.mkdir(parents=True)
    planted.write_text(json.dumps({"format": "flinkx-code-version", "version": 1, "key": key, "mac": "0" * 64,
                                   "data": "f" * 64}))
    assert compute_code_version([folder], store) == true_version
    write_entry(planted, "flinkx-code-version", 1, key, "e" * 64)  # signed with this user's key: used
    assert compute_code_version([folder], store) == "e" * 64


def test_prune_removes_an_old_version_folder_once_its_entries_age_out(tmp_path):
    cache, now = tmp_path / "cache", time.time()
    old, current = cache / "0123456789abcdef", cache / "fedcba9876543210"
    key = "ab" + "1" * 62
    for folder in (old, current):
        for path in (folder / "summaries" / "ab" / f"{key}.json", folder / "load" / "headers.json"):
            write_entry(path, "f", 1, key, {"x": 1})
            os.utime(path, (now - 30 * 86400, now - 30 * 86400))
    assert prune(cache, now - 14 * 86400, now - 86400, current.name) == 4
    assert not old.exists()
    assert current.is_dir()  # emptied, but this flinkx's own folder stays


def test_the_versions_in_the_key_are_read_without_importlib_metadata():
    # ruamel.yaml's folder is `ruamel/yaml` and its dist-info `ruamel_yaml-*`: it used to fall back to
    # importing importlib.metadata, a fifth of a replayed build.
    code = ("import sys; from flinkx_build.hashing import installed_version; "
            "print(installed_version('ruamel.yaml'), installed_version('sqlfluff'), 'importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    ruamel, sqlfluff, imported = done.stdout.split()
    from importlib import metadata

    assert (ruamel, sqlfluff) == (metadata.version("ruamel.yaml"), metadata.version("sqlfluff"))
    assert imported == "False"
