"""The Java a target runs on comes from the target table (`targets.py`): a JDK outside its range is one line that says
which Java was found and what to install, read from the JDK's `release` file (no JVM started)."""
from __future__ import annotations

import stat

from flinkx_build.planner.session import java_release
from flinkx_build.planner.session import planner_problem


def _jdk(root, version: str):
    (root / "bin").mkdir(parents=True)
    java = root / "bin" / "java"
    java.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    (root / "release").write_text(f'IMPLEMENTOR="test"\nJAVA_VERSION="{version}"\n', encoding="utf-8")
    return java


def test_a_jdk_outside_the_targets_range_is_one_line(tmp_path, monkeypatch):
    java = _jdk(tmp_path / "jdk11", "11.0.2")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk11"))
    assert java_release(str(java)) == 11
    problem = planner_problem("1.20", fetch=True)
    assert problem == (f"FX303 Flink 1.20 runs here on Java 17 to 21, but {java} is Java 11: install a Java 17 JDK "
                       "and put it first on PATH or set JAVA_HOME")


def test_the_old_version_scheme_and_a_jdk_without_a_release_file(tmp_path):
    assert java_release(str(_jdk(tmp_path / "jdk8", "1.8.0_392"))) == 8
    (tmp_path / "bare" / "bin").mkdir(parents=True)
    assert java_release(str(tmp_path / "bare" / "bin" / "java")) is None  # not refused for want of a file
