"""Fetching a target's jars: pip's own download (a local index here, no network), the checksum, what is extracted."""
from __future__ import annotations

import io

import pytest

from flinkx_build.planner import jars
from tests.planner.wheels import fake_wheel
from tests.planner.wheels import local_index
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
    assert "fetching the Flink 9.9 planner's jars" in progress.getvalue()
    assert jars.installed_lib(target("9.9.0", sha256(wheel))) == lib  # the next run finds them, no download
    assert not list((tmp_path / "home" / "targets").glob("fetch-*"))  # the download itself is gone


def test_a_wheel_whose_checksum_differs_is_refused_and_deleted(isolated_pip, tmp_path):
    wheel = fake_wheel(tmp_path / "wheels", "9.8.0", {"pyflink/lib/flink-dist-9.8.0.jar": JAR})
    isolated_pip.setenv("PIP_INDEX_URL", local_index(tmp_path / "index", wheel))
    with pytest.raises(jars.JarsUnavailable) as refused:
        jars.jars_lib(target("9.8.0", "0" * 64), io.StringIO())
    assert str(refused.value).startswith("FX304 apache_flink_libraries-9.8.0-py2.py3-none-any.whl has sha256")
    assert "refused and deleted" in str(refused.value)
    home = tmp_path / "home"
    assert not list(home.rglob("*.whl")) and not list(home.rglob("*.jar"))
    assert jars.installed_lib(target("9.8.0", "0" * 64)) is None


def test_no_index_is_one_line_with_what_to_do(isolated_pip, tmp_path):
    isolated_pip.setenv("PIP_INDEX_URL", (tmp_path / "no-index").as_uri())
    with pytest.raises(jars.JarsUnavailable) as failed:
        jars.jars_lib(target("9.7.0", "0" * 64), io.StringIO())
    message = str(failed.value)
    assert message.startswith("FX303 could not download apache-flink-libraries 9.7.0") and "\n" not in message
    assert "package index" in message


def test_a_wheel_in_the_download_folder_counts_only_with_the_pinned_checksum(isolated_pip, tmp_path):
    wheel = fake_wheel(tmp_path / "wheels", "9.6.0", {"pyflink/lib/flink-dist-9.6.0.jar": JAR})
    isolated_pip.setenv(jars.WHEEL_DIR_ENV, str(tmp_path / "wheels"))
    with pytest.raises(jars.JarsUnavailable, match="^FX304 "):
        jars.jars_lib(target("9.6.0", "1" * 64), io.StringIO())
    assert wheel.is_file()  # the user's own folder is left alone
    lib = jars.jars_lib(target("9.6.0", sha256(wheel)), io.StringIO())
    assert [p.name for p in lib.iterdir()] == ["flink-dist-9.6.0.jar"]
