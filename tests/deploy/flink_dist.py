"""A Flink distribution for a test cluster, from the package index's archives flinkx already relies on.

The package index has no Flink tarball. A version's `apache-flink` platform wheel (2.8 MB) carries the
scripts of `pyflink/bin` and `pyflink/conf` (1.20.5's cp311 wheel as 2.3.0's); the jars are the target's
`lib/` as flinkx fetches it (planner/jars.py); and `bin/bash-java-utils.jar`, which the scripts put on the
class path to read config.yaml (flink-dist 2.x no longer holds that class), comes from the target's
`apache-flink-libraries` archive (`deps/bin/` of 1.x's source archive, `pyflink/bin/` of 2.x's wheel).
Archives are taken from $FLINKX_WHEEL_DIR (`.ci/run` downloads them there once a machine) or downloaded by
pip into the session's temporary folder; only those members are unpacked, by plain file name.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner import jars
from flinkx_build.targets import TARGETS
from flinkx_build.targets import WHEEL
from tests.deploy.flink_cluster import Distribution

BASH_UTILS = "bash-java-utils.jar"


class NoDistribution(Exception):
    """The archives are not here and could not be downloaded; the message says why."""


def archive(project: str, release: str, pattern: str, download_to: Path, binary: bool) -> Path:
    folder = os.environ.get(jars.WHEEL_DIR_ENV)
    for candidate in sorted(Path(folder).glob(pattern)) if folder else ():
        return candidate
    download_to.mkdir(parents=True, exist_ok=True)
    kind = "--only-binary=:all:" if binary else f"--no-binary={project}"
    done = subprocess.run([sys.executable, "-I", "-m", "pip", "download", "-q", "--no-deps", kind,
                           "--disable-pip-version-check", f"{project}=={release}", "-d", str(download_to)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1200)
    found = sorted(download_to.glob(pattern))
    if done.returncode != 0 or not found:
        tail = (done.stderr.strip().splitlines() or [f"pip exited {done.returncode}"])[-1]
        raise NoDistribution(f"{project} {release} is not in ${jars.WHEEL_DIR_ENV} and pip could not fetch it: {tail}")
    return found[0]


def unpack_scripts(wheel: Path, into: Path) -> None:
    """`pyflink/bin/<name>` and `pyflink/conf/<name>` members only, executable scripts kept executable."""
    with zipfile.ZipFile(wheel) as zf:
        for member in zf.infolist():
            parts = member.filename.split("/")
            if len(parts) != 3 or parts[0] != "pyflink" or parts[1] not in ("bin", "conf") or member.is_dir() \
                    or parts[2] in ("", ".", ".."):
                continue
            target = into / parts[1] / parts[2]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(zf.read(member))
            if parts[1] == "bin":
                target.chmod(target.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP)


def distribution(root: Path, version: str) -> Distribution:
    """bin/ and conf/ unpacked under `root`, lib/ the target's jars as flinkx fetched them."""
    target = TARGETS[version]
    try:
        lib = jars.jars_lib(target, sys.stderr)
    except FlinkUnavailable as exc:
        raise NoDistribution(str(exc)) from None
    scripts = root / "dist"
    platform = f"apache_flink-{target.release}-cp{sys.version_info.major}{sys.version_info.minor}-*.whl"
    unpack_scripts(archive("apache-flink", target.release, platform, root / "archives", True), scripts)
    libraries = archive("apache-flink-libraries", target.release, target.archive_name, root / "archives",
                        target.archive_kind == WHEEL)
    if jars.sha256(libraries) != target.archive_sha256:
        raise NoDistribution(f"{libraries} is not the pinned {target.archive_name}")
    bin_folder = ("pyflink", "bin") if target.archive_kind == WHEEL else target.lib_member[:-1] + ("bin",)
    for name, source in jars.archive_members(target, libraries, bin_folder):
        if name == BASH_UTILS:
            (scripts / "bin" / BASH_UTILS).write_bytes(source.read())
    return Distribution(scripts, lib)
