"""A Flink 2.3 distribution for a test cluster, from the two PyPI wheels flinkx already relies on.

PyPI has no Flink 2.3 tarball: the `apache-flink` 2.3.0 platform wheel (2.8 MB) carries the scripts of
`pyflink/bin` and `pyflink/conf`; the `apache-flink-libraries` 2.3.0 wheel the jars (flinkx's planner
already unpacks its `pyflink/lib` into the user cache, planner/jars.py) and `pyflink/bin/bash-java-utils.jar`,
which the 2.x scripts run to read config.yaml (flink-dist no longer holds that class). Both wheels are
taken from $FLINKX_WHEEL_DIR (`.ci/run` downloads them there once a machine) or downloaded by pip into
the session's temporary folder; only those members are unpacked, by plain file name.
"""
from __future__ import annotations

import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

from flinkx_build.planner import jars
from flinkx_build.targets import TARGETS
from tests.deploy.flink_cluster import Distribution

VERSION = "2.3.0"
PLATFORM_WHEEL = f"apache_flink-{VERSION}-cp{sys.version_info.major}{sys.version_info.minor}-*.whl"
BASH_UTILS = "bash-java-utils.jar"


class NoDistribution(Exception):
    """The 2.3 wheels are not here and could not be downloaded; the message says why."""


def wheel(project: str, pattern: str, download_to: Path) -> Path:
    folder = os.environ.get(jars.WHEEL_DIR_ENV)
    for candidate in sorted(Path(folder).glob(pattern)) if folder else ():
        return candidate
    download_to.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                           "--disable-pip-version-check", f"{project}=={VERSION}", "-d", str(download_to)],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=1200)
    found = sorted(download_to.glob(pattern))
    if done.returncode != 0 or not found:
        tail = (done.stderr.strip().splitlines() or [f"pip exited {done.returncode}"])[-1]
        raise NoDistribution(f"{project} {VERSION}'s wheel is not in ${jars.WHEEL_DIR_ENV} and pip could not fetch it: {tail}")
    return found[0]


def unpack_scripts(archive: Path, into: Path) -> None:
    """`pyflink/bin/<name>` and `pyflink/conf/<name>` members only, executable scripts kept executable."""
    with zipfile.ZipFile(archive) as zf:
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


def distribution(root: Path) -> Distribution:
    """bin/ and conf/ unpacked under `root`, lib/ the 2.3 planner's jars in the user cache."""
    try:
        lib = jars.jars_lib(TARGETS["2.3"], sys.stderr)
    except jars.JarsUnavailable as exc:
        raise NoDistribution(str(exc)) from None
    scripts = root / "dist"
    unpack_scripts(wheel("apache-flink", PLATFORM_WHEEL, root / "wheels"), scripts)
    with zipfile.ZipFile(wheel("apache-flink-libraries", TARGETS["2.3"].wheel_name, root / "wheels")) as zf:
        (scripts / "bin" / BASH_UTILS).write_bytes(zf.read(f"pyflink/bin/{BASH_UTILS}"))
    return Distribution(scripts, lib)
