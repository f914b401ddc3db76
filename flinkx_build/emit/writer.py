"""emit: write the build directory atomically.

Everything is written into a staging folder next to the build folder and
swapped in with renames, so a failed or interrupted build leaves the previous
build untouched.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any


def write_build(out_dir: Path, files: dict[str, str], manifest: dict[str, Any], keep_projects: set[str] | None = None) -> None:
    """Replace `out_dir` with `files` (relative path -> text) and manifest.json.

    `keep_projects`: project folders of the previous build to carry over
    unchanged (a `--project` build only rebuilds the projects it names).
    """
    out_dir = out_dir.resolve()
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.staging-", dir=out_dir.parent))
    try:
        if keep_projects and out_dir.is_dir():
            for project in keep_projects:
                previous = out_dir / project
                if previous.is_dir():
                    shutil.copytree(previous, stage / project)
        for rel, text in files.items():
            target = stage / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        (stage / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        _swap(stage, out_dir)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def _swap(stage: Path, out_dir: Path) -> None:
    old = None
    if out_dir.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.old-", dir=out_dir.parent))
        os.rmdir(old)
        os.replace(out_dir, old)
    try:
        os.replace(stage, out_dir)
    except OSError:
        if old is not None:
            os.replace(old, out_dir)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
