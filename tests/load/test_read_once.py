"""Each workspace file is read once a run, and afresh when it changed (load/read_once.py)."""
from __future__ import annotations

import os
import signal

import pytest

from flinkx_build.load import read_once
from flinkx_build.load.read_once import read_bytes


def test_a_second_read_of_an_unchanged_file_does_not_open_it(tmp_path, monkeypatch):
    path = tmp_path / "t.sql"
    path.write_bytes(b"SELECT 1;\n")
    assert read_bytes(path) == b"SELECT 1;\n"
    opened = []
    real_open = open
    monkeypatch.setattr("builtins.open", lambda *a, **k: opened.append(a[0]) or real_open(*a, **k))
    assert read_bytes(str(path)) == b"SELECT 1;\n"
    assert opened == []


def test_an_edit_is_read_afresh_even_at_the_same_size_and_mtime(tmp_path):
    path = tmp_path / "t.sql"
    path.write_bytes(b"SELECT 1;\n")
    before = os.stat(path)
    assert read_bytes(path) == b"SELECT 1;\n"
    replacement = tmp_path / "new.sql"
    replacement.write_bytes(b"SELECT 2;\n")
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, path)  # same size and mtime, another inode
    assert read_bytes(path) == b"SELECT 2;\n"
    path.write_bytes(b"SELECT 33;\n")  # in place: another size and mtime
    assert read_bytes(path) == b"SELECT 33;\n"


def test_a_file_over_the_limit_is_not_read(tmp_path):
    path = tmp_path / "big.sql"
    path.write_bytes(b"x" * 100)
    assert read_bytes(path, max_bytes=99) is None
    assert read_bytes(path, max_bytes=100) == b"x" * 100


def test_what_is_kept_stays_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(read_once, "MAX_KEPT_BYTES", 250)
    monkeypatch.setattr(read_once, "_kept", {})
    monkeypatch.setattr(read_once, "_kept_bytes", 0)
    for index in range(10):
        path = tmp_path / f"{index}.sql"
        path.write_bytes(b"y" * 100)
        assert read_bytes(path) == b"y" * 100
        assert read_once._kept_bytes <= 250


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    """A FIFO planted in a workspace would block `open` for good; the read refuses it at once."""
    fifo = tmp_path / "pipe.sql"
    os.mkfifo(fifo)

    def blocked(signum, frame):
        raise AssertionError("the read blocked on a FIFO")

    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(10)
    try:
        _refused_at_once(fifo, tmp_path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _refused_at_once(fifo, tmp_path):
    with pytest.raises(OSError, match="not a regular file"):
        read_bytes(fifo)
    link = tmp_path / "link.sql"
    link.symlink_to(fifo)
    with pytest.raises(OSError, match="not a regular file"):
        read_bytes(link)
