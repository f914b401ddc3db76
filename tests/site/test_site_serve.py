"""Issue 30: `flinkx docs --serve` shows the site on the loopback address (a real process)."""
from __future__ import annotations

import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.site.conftest import copy_example

# The server as a terminal starts it: SIGINT at its default and not blocked, so Ctrl-C reaches it. An ignored
# signal stays ignored across exec, and a shell ignores SIGINT in what it starts in the background (`pytest ... &`
# in a script): a suite run so sent its Ctrl-C to a server that never saw it, and waited out the 60 s below.
CTRL_C_REACHES = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                  "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); "
                  "os.execv(sys.executable, [sys.executable, '-m', 'flinkx_build', *sys.argv[1:]])")
SERVING = re.compile(r"serving .* on (http://127\.0\.0\.1:\d+/)")


@pytest.mark.parametrize("quiet", [[], ["-q"]], ids=["default", "quiet"])
def test_serve_shows_the_site_on_loopback_and_stops_on_ctrl_c(tmp_path, quiet):
    """-q hides the summary lines, not the address: with --port 0 nothing else tells the user where the site is."""
    ws = copy_example(tmp_path / "ws")
    with (tmp_path / "stdout.txt").open("w") as stdout:  # a file: a pipe nobody reads could fill and stop the run
        process = subprocess.Popen([sys.executable, "-c", CTRL_C_REACHES, *quiet, "docs", str(ws), "--out", str(tmp_path / "site"),
                                    "--serve", "--port", "0"], stdout=stdout, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str | None] = queue.Queue()
    reader = threading.Thread(target=_read_lines, args=(process, lines), daemon=True)
    reader.start()
    seen: list[str] = []
    try:
        url = _serving_url(lines, seen, timeout=600)  # a guard against a hang: the site takes seconds (under load, tens)
        assert url, f"no 'serving' line; stderr: {''.join(seen)}"
        with urllib.request.urlopen(url + "index.html", timeout=60) as response:
            page = response.read().decode("utf-8")
        assert "<h1>shop-realtime</h1>" in page
        with urllib.request.urlopen(url + "data/search.js", timeout=60) as response:
            assert response.read().startswith(b"window.FLINKX_SEARCH=")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0  # a guard against a hang: it stops in about 0.2 s
        # its stderr ends with it: no process of the run lives on holding it
        reader.join(timeout=60)
        assert not reader.is_alive(), "the server's stderr stayed open after it exited"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    seen.extend(line for line in iter(lines.get_nowait, None))
    assert "Traceback" not in "".join(seen), "".join(seen)


def _read_lines(process: subprocess.Popen, lines: queue.Queue[str | None]) -> None:
    for line in process.stderr:
        lines.put(line)
    lines.put(None)


def _serving_url(lines: queue.Queue[str | None], seen: list[str], timeout: float) -> str | None:
    """The URL of the 'serving' line, waiting for it up to `timeout` s; None if stderr ends or time runs out first."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            return None
        if line is None:
            return None
        seen.append(line)
        if found := SERVING.search(line):
            return found.group(1)
    return None
