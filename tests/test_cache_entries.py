"""cache_entries: what a planted file below the cache folder can and cannot make a read do."""
from __future__ import annotations

import os
import threading

from flinkx_build.cache_entries import read_entry
from flinkx_build.cache_entries import write_entry


def test_round_trip_and_checks(tmp_path):
    path = tmp_path / "ab" / "abc.json"
    write_entry(path, "fmt", 1, "abc", {"x": [1, "two"]})
    assert read_entry(path, "fmt", 1, "abc") == {"x": [1, "two"]}
    assert read_entry(path, "fmt", 2, "abc") is None and read_entry(path, "other", 1, "abc") is None
    assert read_entry(path, "fmt", 1, "abd") is None
    path.write_bytes(path.read_bytes().replace(b"two", b"owt"))  # the data no longer hashes to its sha256
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
