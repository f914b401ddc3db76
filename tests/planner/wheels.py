"""Small stand-in wheels of `apache-flink-libraries` for the provisioning tests (no network)."""
from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

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


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def local_index(root: Path, wheel: Path) -> str:
    """A PEP 503 index in a folder, holding `wheel`: its URL for PIP_INDEX_URL."""
    project = root / "simple" / "apache-flink-libraries"
    project.mkdir(parents=True)
    (project / "index.html").write_text(f'<a href="{wheel.as_uri()}">{wheel.name}</a>\n', encoding="utf-8")
    return (root / "simple").as_uri()


def target(version: str, sha: str) -> Target:
    return Target(version.rsplit(".", 1)[0], version, sha, False)
