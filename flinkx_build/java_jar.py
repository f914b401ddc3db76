"""Compile Java sources into a jar that appears at its final path whole, or not at all.

flinkx builds its own jar on first use (each target's planner driver, `planner/jar.py`), into the user's cache
folder. It compiles in a temporary folder beside the final one and renames it into place, so a
concurrent run or a crash never leaves a half-written jar behind the final name.
"""
from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from pathlib import Path

from flinkx_build import child_process


class JavacFailed(Exception):
    """javac rejected the sources; the message is its first error line (or the start of its output)."""


def build_jar(javac: str, release: str, classpath: str, sources: list[Path], resources: Path,
              final_dir: Path, jar_name: str) -> Path:
    """`final_dir/jar_name`, compiled from `sources` with `resources` added, unless it is there already."""
    jar = final_dir / jar_name
    if jar.is_file():
        return jar
    work = Path(tempfile.mkdtemp(prefix="build-", dir=final_dir.parent)).resolve()
    try:
        classes = work / "classes"
        classes.mkdir()
        cmd = [javac, "--release", release, "-nowarn", "-encoding", "UTF-8", "-cp", classpath,
               "-d", str(classes), *(str(p) for p in sources if p.suffix == ".java")]
        done = child_process.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            raise JavacFailed(next((line for line in done.stderr.splitlines() if "error" in line), done.stderr.strip()[:300]))
        staged = work / "jar"
        staged.mkdir()
        with zipfile.ZipFile(staged / jar_name, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in sorted(classes.rglob("*.class")):
                zf.write(path, path.relative_to(classes).as_posix())
            for path in sorted(p for p in resources.rglob("*") if p.is_file()):
                zf.write(path, path.relative_to(resources).as_posix())
        try:
            os.rename(staged, final_dir)
        except OSError:
            if not jar.is_file():  # lost a race only if the winner left a jar
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return jar
