"""Fetching a target's jars: pip's own download (a local index here, no network), the checksum, what is extracted,
for a wheel (2.x) and a source archive (1.x); a local distribution ($FLINKX_FLINK_HOME)."""
from __future__ import annotations

import io

import pytest

from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner import jars
from tests.planner.wheels import fake_sdist
from tests.planner.wheels import fake_wheel
from tests.planner.wheels import local_index
from tests.planner.wheels import sdist_target
from tests.planner.wheels import sha256
from tests.planner.wheels import target

JAR = b"PK\x05\x06" + b"\0" * 18  # an empty zip: a jar by its bytes


@pytest.fixture
def isolated_pip(monkeypatch, tmp_path):
    """pip sees only what the test gives it: no user or site configuration, no other index."""
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    monkeypatch.delenv(jars.WHEEL_DIR_ENV, raising=False)
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.delenv(jars.FLINK_HOME_ENV, raising=False)
    return monkeypatch


def test_a_wheel_from_the_index_is_checked_and_only_its_lib_jars_are_kept(isolated_pip, tmp_path):
    wheel = fake_wheel(tmp_path / "wheels", "9.9.0", {
        "pyflink/lib/flink-dist-9.9.0.jar": JAR, "pyflink/lib/flink-table-runtime-9.9.0.jar": JAR,
        "pyflink/opt/flink-sql-client-9.9.0.jar": JAR, "pyflink/bin/flink": b"#!/bin/sh\n",
        "pyflink/lib/sub/inner.jar": JAR, "pyflink/__init__.py": b""})
    isolated_pip.setenv("PIP_INDEX_URL", local_index(tmp_path / "index", wheel))
    progress = io.StringIO()

    lib = jars.jars_lib(target("9.9.0", sha256(wheel)), progress)

    assert sorted(p.name for p in lib.iterdir()) == ["flink-dist-9.9.0.jar", "flink-table-runtime-9.9.0.jar"]
    assert lib.is_relative_to(tmp_path / "home")
    assert "fetching the Flink 9.9 jars (apache-flink-libraries 9.9.0, about 1 MB)" in progress.getvalue()
    assert jars.installed_lib(target("9.9.0", sha256(wheel))) == lib  # the next run finds them, no download
    assert not list((tmp_path / "home" / "targets").glob("fetch-*"))  # the download itself is gone


def test_a_wheel_whose_checksum_differs_is_refused_and_deleted(isolated_pip, tmp_path):
    wheel = fake_wheel(tmp_path / "wheels", "9.8.0", {"pyflink/lib/flink-dist-9.8.0.jar": JAR})
    isolated_pip.setenv("PIP_INDEX_URL", local_index(tmp_path / "index", wheel))
    with pytest.raises(FlinkUnavailable) as refused:
        jars.jars_lib(target("9.8.0", "0" * 64), io.StringIO())
    assert str(refused.value).startswith("FX304 the index served apache_flink_libraries-9.8.0-py2.py3-none-any.whl "
                                         "with sha256 ")
    assert "refused by pip before anything in it ran; nothing was kept" in str(refused.value)
    home = tmp_path / "home"
    assert not list(home.rglob("*.whl")) and not list(home.rglob("*.jar"))
    assert jars.installed_lib(target("9.8.0", "0" * 64)) is None


def test_no_index_is_one_line_with_what_to_do(isolated_pip, tmp_path):
    isolated_pip.setenv("PIP_INDEX_URL", (tmp_path / "no-index").as_uri())
    with pytest.raises(FlinkUnavailable) as failed:
        jars.jars_lib(target("9.7.0", "0" * 64), io.StringIO())
    message = str(failed.value)
    assert message.startswith("FX303 could not download apache-flink-libraries 9.7.0") and "\n" not in message
    assert "package index" in message


def test_a_wheel_in_the_download_folder_counts_only_with_the_pinned_checksum(isolated_pip, tmp_path):
    wheel = fake_wheel(tmp_path / "wheels", "9.6.0", {"pyflink/lib/flink-dist-9.6.0.jar": JAR})
    isolated_pip.setenv(jars.WHEEL_DIR_ENV, str(tmp_path / "wheels"))
    with pytest.raises(FlinkUnavailable, match="^FX304 "):
        jars.jars_lib(target("9.6.0", "1" * 64), io.StringIO())
    assert wheel.is_file()  # the user's own folder is left alone
    lib = jars.jars_lib(target("9.6.0", sha256(wheel)), io.StringIO())
    assert [p.name for p in lib.iterdir()] == ["flink-dist-9.6.0.jar"]


def test_a_source_archive_from_the_index_is_checked_before_it_runs_and_only_its_lib_jars_are_kept(isolated_pip, tmp_path):
    ran = tmp_path / "backend-ran"
    sdist = fake_sdist(tmp_path / "archives", "9.5.0", {
        "deps/lib/flink-dist-9.5.0.jar": JAR, "deps/lib/log4j-api-2.24.3.jar": JAR, "deps/opt/flink-python-9.5.0.jar": JAR,
        "deps/lib/nested/inner.jar": JAR, "deps/lib/README.txt": b"not a jar"},
        ran, links={"deps/lib/linked.jar": "/etc/passwd"})
    isolated_pip.setenv("PIP_INDEX_URL", local_index(tmp_path / "index", sdist))

    with pytest.raises(FlinkUnavailable, match="^FX304 the index served apache_flink_libraries-9.5.0.tar.gz with sha256 "):
        jars.jars_lib(sdist_target("9.5.0", "0" * 64), io.StringIO())
    assert not ran.exists()  # pip compared the hash before it ran anything of the archive

    lib = jars.jars_lib(sdist_target("9.5.0", sha256(sdist)), io.StringIO())
    assert sorted(p.name for p in lib.iterdir()) == ["flink-dist-9.5.0.jar", "log4j-api-2.24.3.jar"]
    assert ran.exists()  # with the pinned bytes, pip read the metadata as it does for any source archive


def test_a_source_archive_in_the_download_folder_needs_no_index(isolated_pip, tmp_path):
    sdist = fake_sdist(tmp_path / "archives", "9.4.0", {"deps/lib/flink-dist-9.4.0.jar": JAR}, tmp_path / "ran")
    isolated_pip.setenv(jars.WHEEL_DIR_ENV, str(tmp_path / "archives"))
    isolated_pip.setenv("PIP_INDEX_URL", (tmp_path / "no-index").as_uri())
    lib = jars.jars_lib(sdist_target("9.4.0", sha256(sdist)), io.StringIO())
    assert [p.name for p in lib.iterdir()] == ["flink-dist-9.4.0.jar"]
    assert not (tmp_path / "ran").exists()  # nothing of a local archive runs: flinkx only unpacks it


def test_a_local_distribution_is_used_as_it_is_and_only_for_its_version(isolated_pip, tmp_path):
    for version in ("9.3.1", "9.2.0"):
        (tmp_path / f"flink-{version}" / "lib").mkdir(parents=True)
        (tmp_path / f"flink-{version}" / "lib" / f"flink-dist-{version}.jar").write_bytes(JAR)
    isolated_pip.setenv(jars.FLINK_HOME_ENV, f"flink-9.3.1:{tmp_path / 'flink-9.2.0'}:{tmp_path / 'flink-9.3.1'}")
    isolated_pip.setenv("PIP_INDEX_URL", (tmp_path / "no-index").as_uri())
    # another patch release of the same minor serves; a relative folder (the working folder's) never does
    assert jars.jars_lib(target("9.3.0", "0" * 64), io.StringIO()) == tmp_path / "flink-9.3.1" / "lib"
    assert jars.installed_lib(target("9.2.0", "0" * 64)) == tmp_path / "flink-9.2.0" / "lib"
    assert jars.installed_lib(target("9.1.0", "0" * 64)) is None
