"""cache_entries: what a planted file below the cache folder can and cannot make a read do."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

from flinkx_build import cache_secret
from flinkx_build.cache_entries import read_entry
from flinkx_build.cache_entries import write_entry


def test_round_trip_and_checks(tmp_path):
    path = tmp_path / "ab" / "abc.json"
    write_entry(path, "fmt", 1, "abc", {"x": [1, "two"]})
    assert read_entry(path, "fmt", 1, "abc") == {"x": [1, "two"]}
    assert read_entry(path, "fmt", 2, "abc") is None and read_entry(path, "other", 1, "abc") is None
    assert read_entry(path, "fmt", 1, "abd") is None
    path.write_bytes(path.read_bytes().replace(b"two", b"owt"))  # the data no longer matches its MAC
    assert read_entry(path, "fmt", 1, "abc") is None


def test_a_symlinked_entry_is_a_miss_even_to_a_valid_one(tmp_path):
    real = tmp_path / "elsewhere.json"
    write_entry(real, "fmt", 1, "abc", {"x": 1})
    assert read_entry(real, "fmt", 1, "abc") == {"x": 1}
    link = tmp_path / "ab" / "abc.json"
    link.parent.mkdir()
    link.symlink_to(real)
    assert read_entry(link, "fmt", 1, "abc") is None


def test_a_fifo_or_a_folder_as_an_entry_is_a_miss_not_a_hang(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.json"
    folder.mkdir()
    results = []
    reader = threading.Thread(target=lambda: results.extend(read_entry(p, "fmt", 1, "abc") for p in (fifo, folder)), daemon=True)
    reader.start()
    reader.join(10)
    assert not reader.is_alive(), "reading a FIFO entry blocked"
    assert results == [None, None]


def test_an_entry_written_under_another_users_key_is_a_miss_and_is_rewritten(tmp_path, monkeypatch):
    path = tmp_path / "ab" / "abc.json"
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "attacker"))
    write_entry(path, "fmt", 1, "abc", {"forged": True})  # flinkx's own writer, another key
    assert read_entry(path, "fmt", 1, "abc") == {"forged": True}
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "victim"))
    assert read_entry(path, "fmt", 1, "abc") is None
    write_entry(path, "fmt", 1, "abc", {"real": True})
    assert read_entry(path, "fmt", 1, "abc") == {"real": True}


def test_the_key_is_private_and_made_once(tmp_path, monkeypatch):
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    first = cache_secret.cache_secret()
    key_file = tmp_path / "home" / cache_secret.SECRET_FILE
    assert first is not None and len(first) == cache_secret.SECRET_BYTES
    assert key_file.stat().st_mode & 0o777 == 0o600 and (tmp_path / "home").stat().st_mode & 0o777 == 0o700
    cache_secret._secrets.clear()
    assert cache_secret.cache_secret() == first  # read back, not made again
    assert [p.name for p in (tmp_path / "home").iterdir()] == [cache_secret.SECRET_FILE]  # no temporary left


def test_a_key_file_that_is_a_link_or_readable_by_others_is_not_used(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("FLINKX_HOME", str(home))
    planted = tmp_path / "known"
    planted.write_bytes(b"k" * cache_secret.SECRET_BYTES)
    planted.chmod(0o600)
    (home / cache_secret.SECRET_FILE).symlink_to(planted)
    cache_secret._secrets.clear()
    assert cache_secret.cache_secret() is None
    path = tmp_path / "ab" / "abc.json"
    write_entry(path, "fmt", 1, "abc", {"x": 1})  # no trusted key: nothing is cached
    assert not path.exists()
    (home / cache_secret.SECRET_FILE).unlink()
    (home / cache_secret.SECRET_FILE).write_bytes(b"k" * cache_secret.SECRET_BYTES)
    (home / cache_secret.SECRET_FILE).chmod(0o644)
    cache_secret._secrets.clear()
    assert cache_secret.cache_secret() is None


def test_runs_that_start_together_agree_on_one_key(tmp_path):
    """The first runs on a machine race to make the key: each must end with the same whole key."""
    repo = Path(__file__).resolve().parents[2]
    env = {**os.environ, "FLINKX_HOME": str(tmp_path / "home"), "PYTHONPATH": str(repo)}
    code = "from flinkx_build.cache_secret import cache_secret; print(cache_secret().hex())"
    runs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True) for _ in range(4)]
    keys = {run.communicate(timeout=120)[0].strip() for run in runs}
    assert len(keys) == 1 and len(keys.pop()) == 2 * cache_secret.SECRET_BYTES
    assert [p.name for p in (tmp_path / "home").iterdir()] == [cache_secret.SECRET_FILE]
