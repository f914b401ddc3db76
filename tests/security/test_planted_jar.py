"""A jar committed in a pull request never reaches the JVM that `flinkx validate` starts.

The stand-in jar (flinkx's own connector and function classes, compiled once) used to be kept in
the workspace's cache folder under a name anyone can compute (a hash of flinkx's Java sources and
the Flink version), and was loaded from there when present. A pull request could commit a jar
under that name whose `META-INF/services` lists a Flink table factory: Flink's factory discovery
instantiates every listed factory while it plans, so the jar's static initialiser ran in CI.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from flinkx_build.child_process import java_tool
from flinkx_build.planner import jar as driver
from flinkx_build.targets import TARGETS
from tests.facts.jars import flink_lib
from tests.helpers import flink_available

pytestmark = pytest.mark.flink
needs_flink = pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")
FIXTURE = Path(__file__).parents[1] / "fixtures" / "validate_errors"

PLANTED = """
package planted;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.Factory;

public class Planted implements Factory {
    static {
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(%s), "ran");
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
    public String factoryIdentifier() { return "planted"; }
    public Set<ConfigOption<?>> requiredOptions() { return Set.of(); }
    public Set<ConfigOption<?>> optionalOptions() { return Set.of(); }
}
"""


def _planted_jar(work: Path, marker: Path) -> Path:
    """flinkx's genuine planner driver jar plus a table factory that writes `marker` the moment Flink
    discovers it: a jar that validation runs with as usual, and runs the planted code."""
    javac, lib = java_tool("javac"), flink_lib("1.20")
    assert javac is not None and lib is not None
    source = work / "src" / "planted" / "Planted.java"
    source.parent.mkdir(parents=True)
    source.write_text(PLANTED % ('"' + str(marker).replace("\\", "\\\\") + '"'), encoding="utf-8")
    classes = work / "classes"
    subprocess.run([javac, "--release", "11", "-cp", str(lib / "*"), "-d", str(classes), str(source)],
                   check=True, capture_output=True)
    genuine = driver.driver_jar(TARGETS["1.20"], lib, javac)
    services = "META-INF/services/org.apache.flink.table.factories.Factory"
    jar = work / driver.JAR_NAME
    with zipfile.ZipFile(genuine) as original, zipfile.ZipFile(jar, "w") as zf:
        listed = original.read(services).decode() if services in original.namelist() else ""
        for item in original.infolist():
            if item.filename != services:
                zf.writestr(item, original.read(item))
        zf.write(classes / "planted" / "Planted.class", "planted/Planted.class")
        zf.writestr(services, listed.rstrip("\n") + "\nplanted.Planted\n")
    return jar


@needs_flink
def test_a_stand_in_jar_committed_in_the_cache_folder_is_never_loaded(tmp_path):
    marker = tmp_path / "planted-code-ran"
    jar = _planted_jar(tmp_path / "jar", marker)
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    # every place the workspace's cache folder could offer flinkx's jar under the name it computes
    target = TARGETS["1.20"]
    for folder in (f"planner-jar/{target.version}-{driver.sources_hash(target)}", "validate-jar/x", "standin-jar/x"):
        planted = ws / ".flinkx-cache" / folder / driver.JAR_NAME
        planted.parent.mkdir(parents=True)
        shutil.copyfile(jar, planted)
    # and a log folder planted as a link out: the JVM would write Flink's logs through it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (ws / ".flinkx-cache" / "flink-logs").symlink_to(elsewhere, target_is_directory=True)

    result = subprocess.run([sys.executable, "-m", "flinkx_build", "validate", "ws"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)

    assert not marker.exists(), "the planted jar's code ran"
    # and validation is the one flinkx's own stand-ins give: the fixture's five rejections, no crash
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.count(": FX300 ") == 5, result.stdout
    assert list(elsewhere.iterdir()) == []


@needs_flink
def test_a_jar_a_task_names_in_set_is_never_loaded_while_validating(tmp_path):
    """`SET 'pipeline.jars'` / `'pipeline.classpaths'` to a jar committed in the workspace: validate
    refuses both SETs (FX196, the allow-list of engine settings) and loads nothing from them."""
    marker = tmp_path / "planted-code-ran"
    ws = tmp_path / "ws"
    shutil.copytree(FIXTURE, ws)
    jar = _planted_jar(tmp_path / "jar", marker)
    committed = ws / "lib" / "connector.jar"
    committed.parent.mkdir()
    shutil.copyfile(jar, committed)
    good = ws / "projects" / "p" / "tasks" / "good.sql"
    good.write_text(f"SET 'pipeline.jars' = '{committed.as_uri()}';\nSET 'pipeline.classpaths' = '{committed.as_uri()}';\n"
                    + good.read_text(encoding="utf-8"), encoding="utf-8")

    result = subprocess.run([sys.executable, "-m", "flinkx_build", "validate", "ws"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=600)

    assert not marker.exists(), "a jar named in SET was loaded"
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    out = result.stdout + result.stderr
    assert "good.sql:1:1: FX196 SET 'pipeline.jars'" in out and "good.sql:2:1: FX196 SET 'pipeline.classpaths'" in out, out


@needs_flink
@pytest.mark.parametrize("command", [["validate", "ws"], ["impact", "ws", "--base", "HEAD", "--validate"]])
def test_an_unusable_user_cache_folder_says_how_to_choose_another(tmp_path, command):
    """An environment problem: exit 2 and one line, not an internal error."""
    not_a_folder = tmp_path / "home"  # outside the checkout (a user cache inside one is refused first)
    not_a_folder.write_text("a file")
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURE, repo / "ws")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=repo, check=True)
    good = repo / "ws" / "projects" / "p" / "tasks" / "good.sql"
    good.write_text(good.read_text(encoding="utf-8").replace("WHERE paid", "WHERE NOT paid"), encoding="utf-8")
    env = {**os.environ, "FLINKX_HOME": str(not_a_folder)}
    result = subprocess.run([sys.executable, "-m", "flinkx_build", *command], cwd=repo, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert f"flinkx {command[0]}" in result.stderr and "could not start Flink" in result.stderr
    assert "cannot hold the planner driver" in result.stderr and "set FLINKX_HOME to a folder of yours" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
