"""A graph whose summaries the caches lack is made on every core, and is the graph a serial run makes."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys

from tests.conftest import EXAMPLE

# a fresh interpreter (one thread: fork-safe) with the pools' threshold or the cores set
RUN = (
    "import sys\n"
    "from flinkx_build import pipeline\n"
    "from flinkx_build.cli import main\n"
    "pipeline.{setting}\n"
    "made = []\n"
    "real = pipeline.Session.summarize_on_every_core\n"
    "def counted(self, tasks, on_done=None, compile=True):\n"
    "    made.append(len(tasks))\n"
    "    return real(self, tasks, on_done, compile)\n"
    "pipeline.Session.summarize_on_every_core = counted\n"
    "try:\n"
    "    main(['graph', 'ws', '--format', 'json', *sys.argv[1:]])\n"
    "except SystemExit:\n"
    "    pass\n"
    "print('pools', made, file=sys.stderr)\n"
)


def _graph(tmp_path, setting: str, *args: str) -> tuple[dict, str]:
    done = subprocess.run([sys.executable, "-c", RUN.format(setting=setting), *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout), done.stderr


def test_a_cold_graph_on_every_core_is_the_serial_graph(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "ws", ignore=shutil.ignore_patterns(".flinkx-cache", "build"))
    tasks = len(list((tmp_path / "ws").glob("projects/*/tasks/**/*.sql")))

    parallel, said = _graph(tmp_path, "PARALLEL_THRESHOLD = 1")
    assert f"pools [{tasks}]" in said  # every task was missing, and went to the pool
    shutil.rmtree(tmp_path / "ws" / ".flinkx-cache")
    serial, said = _graph(tmp_path, "CORES = 1")
    assert f"pools [{tasks}]" in said  # asked, and made them here: one core
    assert parallel == serial and parallel["nodes"]
    warm, said = _graph(tmp_path, "PARALLEL_THRESHOLD = 1")
    assert warm == serial and "pools [0]" in said  # all cached now: nothing to make
