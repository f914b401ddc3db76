"""Issue 30: `flinkx docs --serve` shows the site on the loopback address (a real process)."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

from tests.site.conftest import copy_example


def test_serve_shows_the_site_on_loopback_and_stops_on_ctrl_c(tmp_path):
    ws = copy_example(tmp_path / "ws")
    process = subprocess.Popen([sys.executable, "-m", "flinkx_build", "docs", str(ws), "--out", str(tmp_path / "site"),
                                "--serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 600  # a guard against a hang: the site takes seconds
        url = None
        while url is None and time.monotonic() < deadline and process.poll() is None:
            line = process.stderr.readline()
            found = re.search(r"serving .* on (http://127\.0\.0\.1:\d+/)", line)
            url = found.group(1) if found else None
        assert url, "no 'serving' line"
        with urllib.request.urlopen(url + "index.html", timeout=60) as response:
            page = response.read().decode("utf-8")
        assert "<h1>shop-realtime</h1>" in page
        with urllib.request.urlopen(url + "data/search.js", timeout=60) as response:
            assert response.read().startswith(b"window.FLINKX_SEARCH=")
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=60) == 0
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
