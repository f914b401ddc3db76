"""The jars of a target's Flink: a local distribution, or the pinned archive fetched once into the user cache.

A target's jars are `lib/*.jar` of its `apache-flink-libraries` release (`targets.py`: a wheel for 2.x, a
source archive for 1.x). On first use the archive is taken from `$FLINKX_WHEEL_DIR` or downloaded by pip
itself (so the user's pip configuration, index, proxy and certificates apply), its sha256 checked against
the pin before anything in it is opened or run, and only the lib folder's `*.jar` files extracted, by plain
name, into `<user cache>/targets/<release>/lib`. Never into a workspace: these jars run as code.

pip checks the pin too: it gets a requirements file with `--hash=sha256:...`, and pip compares the hash
as soon as the download ends, before it reads the archive's metadata (for a source archive that runs its
setup.py: only after the bytes are known to be the pinned release's). docs/decisions.md has the measurements.

`$FLINKX_FLINK_HOME` names local Flink distributions instead (folders holding `lib/flink-dist-*.jar`,
separated like PATH), for machines without the package index: a target takes the one of its version.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path
from typing import IO
from typing import Iterator

from flinkx_build import child_process
from flinkx_build.cache_root import HOME_ENV
from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.planner import FlinkUnavailable
from flinkx_build.targets import WHEEL
from flinkx_build.targets import Target

# a folder of already-downloaded archives (CI fetches once for every test session); one found there is used
# only when its sha256 is the pinned one, so the folder is a download cache, not a trust root
WHEEL_DIR_ENV = "FLINKX_WHEEL_DIR"
FLINK_HOME_ENV = "FLINKX_FLINK_HOME"
_DONE = "complete"  # written last: a folder without it is an interrupted extraction
_PIP_HASH_MISMATCH = "DO NOT MATCH THE HASHES"


def local_distribution(target: Target) -> Path | None:
    """The lib/ of the distribution in `$FLINKX_FLINK_HOME` whose flink-dist is of the target's version."""
    for home in os.environ.get(FLINK_HOME_ENV, "").split(os.pathsep):
        if not home or not os.path.isabs(home):
            continue  # a relative folder would be the working folder's: a workspace
        lib = Path(home, "lib")
        if any(lib.glob(f"flink-dist-{target.version}.*.jar")) or any(lib.glob(f"flink-dist*-{target.version}.*.jar")):
            return lib
    return None


def installed_lib(target: Target) -> Path | None:
    """The folder of the target's jars when they are already on this machine (no download), else None."""
    local = local_distribution(target)
    if local is not None:
        return local
    folder = _cache_folder(target) / "lib"
    return folder if (folder.parent / _DONE).is_file() else None


def jars_lib(target: Target, progress: IO[str] | None = None) -> Path:
    """The folder holding the target's jars, fetching them on first use; FlinkUnavailable otherwise."""
    found = installed_lib(target)
    if found is not None:
        return found
    return _fetch(target, progress or sys.stderr)


def _cache_folder(target: Target) -> Path:
    return user_cache_dir() / "targets" / target.release


def _fetch(target: Target, progress: IO[str]) -> Path:
    try:
        root = private_folder(private_folder(user_cache_dir()) / "targets")
    except OSError as exc:
        raise FlinkUnavailable(f"FX303 flinkx's own cache folder cannot hold the Flink {target.version} jars "
                               f"({exc}); set {HOME_ENV} to a folder of yours") from None
    work = Path(tempfile.mkdtemp(prefix="fetch-", dir=root)).resolve()
    try:
        archive = _local_archive(target)
        if archive is not None:
            print(f"flinkx: unpacking the Flink {target.version} jars from {archive} into {user_cache_dir()} once",
                  file=progress, flush=True)
            kept = f"left in ${WHEEL_DIR_ENV}, not used"
        else:
            archive = _download(target, work, progress)
            kept = "deleted"
        digest = sha256(archive)
        if digest != target.archive_sha256:
            if archive.is_relative_to(work):
                archive.unlink()
            raise FlinkUnavailable(f"FX304 {archive.name} has sha256 {digest[:16]}..., not the pinned "
                                   f"{target.archive_sha256[:16]}... (flinkx_build/targets.py): refused and {kept}; "
                                   "nothing was extracted")
        staged = work / "target"
        _extract_jars(target, archive, staged / "lib")
        (staged / _DONE).write_text(target.archive_sha256 + "\n", encoding="utf-8")
        final = _cache_folder(target)
        try:
            os.rename(staged, final)
        except OSError:
            if not (final / _DONE).is_file():  # lost a race only if the winner finished
                raise
        return final / "lib"
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _local_archive(target: Target) -> Path | None:
    folder = os.environ.get(WHEEL_DIR_ENV)
    candidate = Path(folder, target.archive_name) if folder and os.path.isabs(folder) else None
    return candidate if candidate is not None and candidate.is_file() else None


def _download(target: Target, work: Path, progress: IO[str]) -> Path:
    """pip's own download of the pinned archive into `work`, the hash checked by pip before anything in the
    archive runs; pip's progress goes to `progress` (stderr)."""
    print(f"flinkx: fetching the Flink {target.version} jars (apache-flink-libraries {target.release}, about "
          f"{target.archive_mb} MB) into {user_cache_dir()} once", file=progress, flush=True)
    pinned = work / "pinned.txt"
    pinned.write_text(f"apache-flink-libraries=={target.release} --hash=sha256:{target.archive_sha256}\n",
                      encoding="utf-8")
    # the target's own archive kind only (a source archive's build requirements may come as wheels)
    kind = ["--only-binary=:all:"] if target.archive_kind == WHEEL else ["--no-binary=apache-flink-libraries"]
    # isolated (-I) and outside the workspace: `-m pip` would otherwise import a `pip/` the working folder holds
    cmd = child_process.python_command(
        "-m", "pip", "download", "--no-deps", *kind, "--require-hashes", "--disable-pip-version-check",
        "--progress-bar", "on" if progress.isatty() else "off", "-r", str(pinned), "-d", str(work / "download"))
    direct: IO[str] | int = progress  # pip writes its lines (and on a terminal its bar) straight there
    try:
        progress.fileno()
    except (OSError, ValueError, AttributeError):
        direct = subprocess.PIPE  # a stream without a file (tests): relayed once pip is done
    done = child_process.run(cmd, stdout=direct, stderr=subprocess.PIPE, text=True)
    if direct == subprocess.PIPE and done.stdout:
        progress.write(done.stdout)
    archive = work / "download" / target.archive_name
    if done.returncode != 0 or not archive.is_file():
        lines = [line.strip() for line in (done.stderr or "").splitlines() if line.strip()]
        if any(_PIP_HASH_MISMATCH in line for line in lines):
            got = next((line.split()[-1] for line in lines if line.startswith("Got")), "another hash")
            raise FlinkUnavailable(f"FX304 the index served {target.archive_name} with sha256 {got[:16]}..., not the "
                                   f"pinned {target.archive_sha256[:16]}... (flinkx_build/targets.py): refused by pip "
                                   "before anything in it ran; nothing was kept")
        reason = lines[-1] if lines else f"pip exited {done.returncode}"
        raise FlinkUnavailable(f"FX303 could not download apache-flink-libraries {target.release} (the Flink "
                               f"{target.version} jars): {reason[:300]} (is the package index reachable? pip's own "
                               f"configuration applies; or put the archive in ${WHEEL_DIR_ENV}, or a Flink "
                               f"{target.version} distribution in ${FLINK_HOME_ENV})")
    return archive


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _extract_jars(target: Target, archive: Path, lib: Path) -> None:
    """Only the lib folder's `<name>.jar` regular files, by their plain file name (no member path is trusted)."""
    lib.mkdir(parents=True)
    for name, source in archive_members(target, archive, target.lib_member):
        if name.endswith(".jar"):
            with open(lib / name, "wb") as dst:
                shutil.copyfileobj(source, dst, 1 << 20)


def archive_members(target: Target, archive: Path, folder: tuple[str, ...]) -> Iterator[tuple[str, IO[bytes]]]:
    """(plain name, content) of each regular file directly in `folder` of the target's archive: no links, no
    sub-folders, no name that is a path."""
    depth = len(folder) + 1
    if target.archive_kind == WHEEL:
        with zipfile.ZipFile(archive) as zf:
            for member in zf.infolist():
                parts = member.filename.split("/")
                if len(parts) == depth and tuple(parts[:-1]) == folder and _plain(parts[-1]) and not member.is_dir():
                    with zf.open(member) as source:
                        yield parts[-1], source
        return
    with tarfile.open(archive, "r:gz") as tf:
        for info in tf:
            parts = info.name.split("/")
            if len(parts) == depth and tuple(parts[:-1]) == folder and _plain(parts[-1]) and info.isreg():
                source = tf.extractfile(info)
                if source is not None:
                    with source:
                        yield parts[-1], source


def _plain(name: str) -> bool:
    return name not in ("", ".", "..") and "\\" not in name
