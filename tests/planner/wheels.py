"""Small stand-in archives of `apache-flink-libraries` for the provisioning tests (no network): a wheel as 2.x
publishes it, a source archive as 1.x does (whose metadata pip reads by running its build backend)."""
from __future__ import annotations

import hashlib
import io
import tarfile
import textwrap
import zipfile
from pathlib import Path

from flinkx_build.targets import SDIST
from flinkx_build.targets import WHEEL
from flinkx_build.targets import Target


def fake_wheel(folder: Path, version: str, members: dict[str, bytes]) -> Path:
    """A wheel pip accepts (name and version in its metadata) holding `members`."""
    folder.mkdir(parents=True, exist_ok=True)
    info = f"apache_flink_libraries-{version}.dist-info"
    wheel = folder / f"apache_flink_libraries-{version}-py2.py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
        zf.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: apache-flink-libraries\nVersion: {version}\n")
        zf.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: flinkx-tests\nRoot-Is-Purelib: true\nTag: py2-none-any\nTag: py3-none-any\n")
        zf.writestr(f"{info}/RECORD", "")
    return wheel


def fake_sdist(folder: Path, version: str, members: dict[str, bytes], ran: Path,
               links: dict[str, str] | None = None) -> Path:
    """A source archive pip accepts: its in-tree build backend (no build requirements, so no index is needed)
    writes `ran` when pip runs it to read the metadata. `members` are relative to the archive's top folder;
    `links` adds symbolic links (name -> target) there."""
    folder.mkdir(parents=True, exist_ok=True)
    top = f"apache_flink_libraries-{version}"
    backend = textwrap.dedent(f"""\
        import os
        def _ran():
            open({str(ran)!r}, "a").write("backend ran\\n")
        def get_requires_for_build_wheel(config_settings=None):
            _ran()
            return []
        def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
            _ran()
            info = os.path.join(metadata_directory, "apache_flink_libraries-{version}.dist-info")
            os.makedirs(info)
            open(os.path.join(info, "METADATA"), "w").write(
                "Metadata-Version: 2.1\\nName: apache-flink-libraries\\nVersion: {version}\\n")
            return "apache_flink_libraries-{version}.dist-info"
        """)
    files = {
        "PKG-INFO": f"Metadata-Version: 2.1\nName: apache-flink-libraries\nVersion: {version}\n".encode(),
        "pyproject.toml": b'[build-system]\nrequires = []\nbuild-backend = "fake_backend"\nbackend-path = ["."]\n',
        "fake_backend.py": backend.encode(),
        **members,
    }
    archive = folder / f"{top}.tar.gz"
    with tarfile.open(archive, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(f"{top}/{name}")
            info.type, info.linkname = tarfile.SYMTYPE, target
            tf.addfile(info)
    return archive


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def local_index(root: Path, archive: Path) -> str:
    """A PEP 503 index in a folder, holding `archive`: its URL for PIP_INDEX_URL."""
    project = root / "simple" / "apache-flink-libraries"
    project.mkdir(parents=True)
    (project / "index.html").write_text(f'<a href="{archive.as_uri()}">{archive.name}</a>\n', encoding="utf-8")
    return (root / "simple").as_uri()


def target(version: str, sha: str, kind: str = WHEEL) -> Target:
    return Target(version.rsplit(".", 1)[0], version, kind, sha, 1, (17, 21))


def sdist_target(version: str, sha: str) -> Target:
    return target(version, sha, SDIST)
