"""A target's jars are the pinned release's, and flinkx says truly what it did with anything else.

Issue 41 item 12: an archive in `$FLINKX_WHEEL_DIR` (the operator's own download folder) whose checksum is not
the pin is refused, and left where it is; FX304 said "refused and deleted" of it. And a source archive (how
1.x is published) is checked before anything in it runs: pip runs a source archive's build backend to read
its metadata, so the pin goes to pip as a `--hash` requirement, which pip compares as the download ends.
"""
from __future__ import annotations

import io

import pytest

from flinkx_build.planner import FlinkUnavailable
from flinkx_build.planner import jars
from tests.planner.wheels import fake_sdist
from tests.planner.wheels import fake_wheel
from tests.planner.wheels import local_index
from tests.planner.wheels import sdist_target
from tests.planner.wheels import target

JAR = b"PK\x05\x06" + b"\0" * 18


@pytest.fixture
def no_index(monkeypatch, tmp_path):
    monkeypatch.setenv("PIP_CONFIG_FILE", "/dev/null")
    monkeypatch.setenv("PIP_INDEX_URL", (tmp_path / "no-index").as_uri())
    monkeypatch.setenv("FLINKX_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.delenv(jars.FLINK_HOME_ENV, raising=False)
    return monkeypatch


def test_a_foreign_archive_in_the_download_folder_is_refused_kept_and_said_to_be_kept(no_index, tmp_path):
    wheel = fake_wheel(tmp_path / "wheels", "9.6.0", {"pyflink/lib/flink-dist-9.6.0.jar": JAR})
    no_index.setenv(jars.WHEEL_DIR_ENV, str(tmp_path / "wheels"))
    with pytest.raises(FlinkUnavailable) as refused:
        jars.jars_lib(target("9.6.0", "1" * 64), io.StringIO())
    message = str(refused.value)
    assert wheel.is_file()  # the operator's folder is left alone...
    assert message.startswith("FX304 apache_flink_libraries-9.6.0-py2.py3-none-any.whl has sha256 ")
    assert "deleted" not in message  # ...and the message says so
    assert "refused and left in $FLINKX_WHEEL_DIR, not used; nothing was extracted" in message
    assert not list((tmp_path / "home").rglob("*.jar"))


def test_a_source_archive_that_is_not_the_pinned_one_never_runs(no_index, tmp_path):
    ran = tmp_path / "setup-ran"
    sdist = fake_sdist(tmp_path / "archives", "9.5.0", {"deps/lib/flink-dist-9.5.0.jar": JAR}, ran)
    no_index.setenv("PIP_INDEX_URL", local_index(tmp_path / "index", sdist))
    with pytest.raises(FlinkUnavailable, match="refused by pip before anything in it ran"):
        jars.jars_lib(sdist_target("9.5.0", "2" * 64), io.StringIO())
    assert not ran.exists()
    assert not list((tmp_path / "home").rglob("*.tar.gz")) and not list((tmp_path / "home").rglob("*.jar"))
