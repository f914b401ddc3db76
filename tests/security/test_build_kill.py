"""A real `flinkx build` killed (SIGKILL) at many points never breaks the previous build.

After every kill the build folder is one whole build (the previous one or the
new one, every file the manifest lists and nothing else, byte for byte), and a
start that gets as far as writing removes every staging folder earlier kills
left. The kills are timed from the moment the staging folder appears, so they
land inside the short window where files are written and swapped, not only
in the compile phase before it.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flinkx_build.emit.folder import made_by_flinkx
from tests.conftest import write_tree

TASKS = 80
KILLS = 24
EARLY_DELAYS = (0.2, 0.5, 0.9, 1.4)  # seconds after start: in start-up and compile, before the staging folder
EARLY_KILLS = len(EARLY_DELAYS)

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL") or not hasattr(os, "fork"), reason="needs POSIX signals and fork")


def workspace(root: Path) -> Path:
    """One source and one sink per task (each table has one writer): only connectors that need no options."""
    files = {
        "flinkx.yaml": "engine: flink\n",
        "projects/ods/tables/src.yaml": "type: datagen\ncolumns:\n  - {name: id, type: STRING}\n  - {name: amount, type: INT}\nwith: {connector: datagen}\n",
    }
    for i in range(TASKS):
        files[f"projects/dwd/tables/sink{i:03d}.yaml"] = (
            "type: blackhole\ncolumns:\n  - {name: id, type: STRING}\n  - {name: amount, type: INT}\nwith: {connector: blackhole}\n"
        )
    return write_tree(root, files)


def set_version(root: Path, version: int) -> None:
    """Every task's text depends on the version, so two builds differ in every script."""
    tasks = root / "projects" / "dwd" / "tasks"
    tasks.mkdir(parents=True, exist_ok=True)
    for i in range(TASKS):
        (tasks / f"t{i:03d}.sql").write_text(f"INSERT INTO sink{i:03d} SELECT id, amount + {i * 10 + version} FROM ods.src;\n")


def build_cmd(root: Path) -> list[str]:
    return [sys.executable, "-m", "flinkx_build", "build", str(root)]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def assert_whole(folder: Path) -> None:
    """The manifest lists exactly the scripts that are there, and the marker is there."""
    files = set(snapshot(folder))
    manifest = json.loads((folder / "manifest.json").read_text())
    compiled = {t["compiled"] for t in manifest["tasks"].values()}
    assert len(compiled) == TASKS
    assert files == compiled | {"manifest.json", ".flinkx-build"}, sorted(files ^ (compiled | {"manifest.json", ".flinkx-build"}))[:5]


def _differences(a: dict[str, bytes], b: dict[str, bytes]) -> str:
    import difflib

    out = []
    for name in sorted(set(a) | set(b)):
        if a.get(name) != b.get(name):
            out += [name, *difflib.unified_diff(b.get(name, b"").decode().splitlines(), a.get(name, b"").decode().splitlines(), lineterm="", n=1)]
    return "\n".join(out[:40])


def leftovers(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if p.name.startswith(".build.")}


class Builds:
    """Real `flinkx build` processes: fresh interpreters, or forks of one that has imported flinkx.

    A fresh interpreter spends a second or more importing sqlfluff before it
    does any work; the kills inside the write window start their builds as
    forks of a warm interpreter (each a whole `flinkx build` process of its
    own, killed with SIGKILL), which keeps 20 kills at a few seconds.
    """

    SERVER = (
        "import os, sys\n"
        "from flinkx_build.cli import main\n"
        "for line in sys.stdin:\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        null = os.open(os.devnull, os.O_WRONLY); os.dup2(null, 1); os.dup2(null, 2)\n"
        "        try:\n"
        "            main(['build', line.strip()], prog_name='flinkx')\n"
        "        except SystemExit as exc:\n"
        "            os._exit(exc.code if isinstance(exc.code, int) else 1)\n"
        "        os._exit(0)\n"
        "    sys.stdout.write(f'{pid}\\n'); sys.stdout.flush()\n"
        "    os.waitpid(pid, 0)\n"
    )

    def __init__(self, root: Path) -> None:
        self.root = root
        self.server = subprocess.Popen([sys.executable, "-c", self.SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def close(self) -> None:
        self.server.stdin.close()
        self.server.wait(timeout=30)

    def forked(self) -> int:
        self.server.stdin.write(f"{self.root}\n")
        self.server.stdin.flush()
        return int(self.server.stdout.readline())

    def fresh(self) -> subprocess.Popen:
        return subprocess.Popen(build_cmd(self.root), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # the fork server reaps its children at once: a finished build is gone
    except ProcessLookupError:
        return False
    return True


def run_and_kill(builds: Builds, delay: float, after_staging: bool) -> bool:
    """Start a build and SIGKILL it `delay` s after start (fresh) or after its staging folder appears (forked).

    True if the build got as far as creating its staging folder.
    """
    before = leftovers(builds.root)
    proc = builds.fresh() if not after_staging else None
    pid = proc.pid if proc else builds.forked()
    started = time.perf_counter()
    staged_at = None
    while (proc.poll() is None) if proc else alive(pid):
        now = time.perf_counter()
        if staged_at is None and any(".staging-" in name for name in leftovers(builds.root) - before):
            staged_at = now
        if (not after_staging and now - started >= delay) or (staged_at is not None and now - staged_at >= delay):
            break
        time.sleep(0.0002)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass  # it finished first
    if proc:
        proc.wait()
    else:
        while alive(pid):
            time.sleep(0.001)
    return staged_at is not None


def write_window(builds: Builds) -> float:
    """Seconds from the staging folder's appearance to the end of one real (forked) build."""
    pid = builds.forked()
    staged_at = None
    while alive(pid):
        if staged_at is None and any(".staging-" in n for n in leftovers(builds.root)):
            staged_at = time.perf_counter()
        time.sleep(0.0002)
    return time.perf_counter() - (staged_at or time.perf_counter())


def test_killed_builds_leave_the_previous_build_whole_and_no_staging_behind(tmp_path):
    root = workspace(tmp_path / "ws")
    expected = {}
    for version in (0, 1):  # the two builds every kill alternates between (and a warm parse cache for both)
        set_version(root, version)
        subprocess.run(build_cmd(root), check=True, capture_output=True)
        expected[version] = snapshot(root / "build")
    builds = Builds(root)
    try:
        window = write_window(builds)
        assert snapshot(root / "build") == expected[1]
        current, reached = 1, 0
        for kill in range(KILLS):
            target = 1 - current
            set_version(root, target)
            earlier = leftovers(root)
            if kill < EARLY_KILLS:  # a fresh process, killed in start-up or compile
                staged = run_and_kill(builds, EARLY_DELAYS[kill], after_staging=False)
            else:  # while files are written, swapped in, the previous build removed
                step = (kill - EARLY_KILLS) / (KILLS - EARLY_KILLS - 1)
                staged = run_and_kill(builds, step * window * 1.1, after_staging=True)
            build = root / "build"
            assert build.is_dir(), f"kill {kill}: no build folder"
            assert_whole(build)
            now = snapshot(build)
            assert now in (expected[current], expected[target]), f"kill {kill}: the build folder is neither build"
            current = target if now == expected[target] else current
            unknown = [n for n in leftovers(root) if not made_by_flinkx(root / n)]
            assert not unknown, f"kill {kill}: {unknown} would never be cleaned up"
            if staged:  # this start got as far as writing: what earlier kills left is gone
                reached += 1
                assert not (earlier & leftovers(root)), f"kill {kill}: {earlier & leftovers(root)} left from earlier kills"
    finally:
        builds.close()
    assert reached >= KILLS - EARLY_KILLS - 2, f"only {reached} kills reached the write phase"
    set_version(root, 0)
    done = subprocess.run(build_cmd(root), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    final = snapshot(root / "build")
    assert final == expected[0], _differences(final, expected[0])
    assert not leftovers(root), leftovers(root)
    assert {p.name for p in root.iterdir()} == {"flinkx.yaml", "projects", "build", ".flinkx-cache"}
