"""The jars of a target's planner: from the installed `flink` extra, or fetched once into the user cache.

A target other than the extra's comes from the pinned `apache-flink-libraries` wheel (`targets.py`):
downloaded by pip itself (so the user's pip configuration, index and proxy apply), its sha256 checked
against the pin (a mismatch is refused and the file deleted), and only `pyflink/lib/*.jar` extracted into
`<user cache>/targets/<version>/lib`. Never into a workspace: these jars run as code in the planner's JVM.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path
from typing import IO

from flinkx_build import child_process
from flinkx_build.cache_root import HOME_ENV
from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.targets import Target

# a folder of already-downloaded wheels (CI fetches once for every test session); a wheel found there
# is used only when its sha256 is the pinned one, so the folder is a download cache, not a trust root
WHEEL_DIR_ENV = "FLINKX_WHEEL_DIR"
EXTRA_HINT = 'pip install "flinkx-build[flink]"'
_DONE = "complete"  # written last: a folder without it is an interrupted extraction


class JarsUnavailable(Exception):
    """The target's jars are not here and cannot be had now; the message is one line with its FX code."""


def installed_lib(target: Target) -> Path | None:
    """The folder of the target's jars when they are already on this machine (no download), else None."""
    if target.from_extra:
        return _extra_lib(target)
    folder = _cache_folder(target) / "lib"
    return folder if (folder.parent / _DONE).is_file() else None


def jars_lib(target: Target, progress: IO[str] | None = None) -> Path:
    """The folder holding the target's jars, fetching them on first use; JarsUnavailable otherwise."""
    found = installed_lib(target)
    if found is not None:
        return found
    if target.from_extra:
        raise JarsUnavailable(f"FX303 the jars of Flink {target.version} come with the flink extra "
                              f"(apache-flink {target.libraries_version}): {EXTRA_HINT}")
    return _fetch(target, progress or sys.stderr)


def _extra_lib(target: Target) -> Path | None:
    spec = importlib.util.find_spec("pyflink")
    if spec is None or not spec.submodule_search_locations:
        return None
    try:
        installed = metadata.version("apache-flink-libraries")
    except metadata.PackageNotFoundError:
        installed = ""
    if installed and not installed.startswith(target.version + "."):
        return None  # the extra holds another Flink than this target's
    lib = Path(next(iter(spec.submodule_search_locations))) / "lib"
    return lib if any(lib.glob("flink-dist*.jar")) else None


def _cache_folder(target: Target) -> Path:
    return user_cache_dir() / "targets" / target.libraries_version


def _fetch(target: Target, progress: IO[str]) -> Path:
    try:
        root = private_folder(private_folder(user_cache_dir()) / "targets")
    except OSError as exc:
        raise JarsUnavailable(f"FX303 flinkx's own cache folder cannot hold the Flink {target.version} jars "
                              f"({exc}); set {HOME_ENV} to a folder of yours") from None
    work = Path(tempfile.mkdtemp(prefix="fetch-", dir=root))
    try:
        wheel = _local_wheel(target)
        if wheel is not None:
            print(f"flinkx: unpacking the Flink {target.version} planner's jars from {wheel} into {user_cache_dir()} once",
                  file=progress, flush=True)
        else:
            wheel = _download(target, work, progress)
        digest = _sha256(wheel)
        if digest != target.wheel_sha256:
            if wheel.is_relative_to(work):
                wheel.unlink()
            raise JarsUnavailable(f"FX304 {wheel.name} has sha256 {digest[:16]}..., not the pinned "
                                  f"{target.wheel_sha256[:16]}... (flinkx_build/targets.py): refused and deleted")
        staged = work / "target"
        _extract_jars(wheel, staged / "lib")
        (staged / _DONE).write_text(target.wheel_sha256 + "\n", encoding="utf-8")
        final = _cache_folder(target)
        try:
            os.rename(staged, final)
        except OSError:
            if not (final / _DONE).is_file():  # lost a race only if the winner finished
                raise
        return final / "lib"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _local_wheel(target: Target) -> Path | None:
    folder = os.environ.get(WHEEL_DIR_ENV)
    candidate = Path(folder, target.wheel_name) if folder else None
    return candidate if candidate is not None and candidate.is_file() else None


def _download(target: Target, work: Path, progress: IO[str]) -> Path:
    """pip's own download of the pinned wheel into `work`; its progress goes to `progress` (stderr)."""
    print(f"flinkx: fetching the Flink {target.version} planner's jars (apache-flink-libraries "
          f"{target.libraries_version}, about 330 MB) into {user_cache_dir()} once", file=progress, flush=True)
    # isolated (-I) and outside the workspace: `-m pip` would otherwise import a `pip/` the working folder holds
    cmd = child_process.python_command(
        "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check",
        "--progress-bar", "on" if progress.isatty() else "off",
        f"apache-flink-libraries=={target.libraries_version}", "-d", str(work.resolve()))
    direct: IO[str] | int = progress  # pip writes its lines (and on a terminal its bar) straight there
    try:
        progress.fileno()
    except (OSError, ValueError, AttributeError):
        direct = subprocess.PIPE  # a stream without a file (tests): relayed once pip is done
    done = child_process.run(cmd, stdout=direct, stderr=subprocess.PIPE, text=True)
    if direct == subprocess.PIPE and done.stdout:
        progress.write(done.stdout)
    wheel = work / target.wheel_name
    if done.returncode != 0 or not wheel.is_file():
        lines = [line.strip() for line in (done.stderr or "").splitlines() if line.strip()]
        reason = lines[-1] if lines else f"pip exited {done.returncode}"
        raise JarsUnavailable(f"FX303 could not download apache-flink-libraries {target.libraries_version} "
                              f"(the Flink {target.version} planner's jars): {reason[:300]} (is the package index "
                              f"reachable? pip's own configuration applies; or put the wheel in ${WHEEL_DIR_ENV})")
    return wheel


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _extract_jars(wheel: Path, lib: Path) -> None:
    """Only `pyflink/lib/<name>.jar` members, by their plain file name (no member path is trusted)."""
    lib.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as zf:
        for member in zf.infolist():
            parts = member.filename.split("/")
            if len(parts) == 3 and parts[:2] == ["pyflink", "lib"] and parts[2].endswith(".jar") \
                    and parts[2] not in ("", ".", "..") and not member.is_dir():
                with zf.open(member) as src, open(lib / parts[2], "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
