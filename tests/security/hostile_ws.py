"""Hostile workspaces for the attack tests: a task, two tables, a git history, and a jar whose
static initialiser writes a marker file the moment any JVM loads its class."""
from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from flinkx_build.child_process import java_tool
from tests.facts.jars import flink_lib

EVIL = """
package evil;

import org.apache.flink.table.functions.ScalarFunction;

public class Evil extends ScalarFunction {
    static {
        try {
            java.nio.file.Files.writeString(java.nio.file.Path.of(%s), "ran");
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
    public String eval(String s) { return s; }
}
"""

# connectors every Flink has on its classpath: before the fix, planning got as far as the function
ORDERS = """type: datagen
columns:
  - {name: order_id, type: STRING}
  - {name: amount, type: "DECIMAL(10, 2)"}
  - {name: paid, type: BOOLEAN}
with: {connector: datagen}
"""
SINK = """type: blackhole
columns:
  - {name: order_id, type: STRING}
  - {name: amount, type: "DECIMAL(10, 2)"}
with: {connector: blackhole}
"""
INSERT = "INSERT INTO kafka_sink SELECT order_id, amount FROM orders WHERE paid;\n"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]


def evil_jar(work: Path, marker: Path) -> Path:
    """A jar of one scalar function, `evil.Evil`, compiled here with javac."""
    javac, lib = java_tool("javac"), flink_lib("1.20")
    assert javac is not None and lib is not None
    source = work / "src" / "evil" / "Evil.java"
    source.parent.mkdir(parents=True)
    source.write_text(EVIL % ('"' + str(marker).replace("\\", "\\\\") + '"'), encoding="utf-8")
    classes = work / "classes"
    subprocess.run([javac, "--release", "11", "-cp", str(lib / "*"), "-d", str(classes), str(source)],
                   check=True, capture_output=True)
    jar = work / "evil.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.write(classes / "evil" / "Evil.class", "evil/Evil.class")
    return jar


def workspace(root: Path, task: str = INSERT) -> Path:
    """A streaming workspace with one task `p/t`, the root of its own git repository."""
    (root / "projects" / "p" / "tables").mkdir(parents=True)
    (root / "projects" / "p" / "tasks").mkdir()
    (root / "flinkx.yaml").write_text("engine: flink\nname: hostile\n", encoding="utf-8")
    (root / "projects" / "p" / "tables" / "orders.yaml").write_text(ORDERS, encoding="utf-8")
    (root / "projects" / "p" / "tables" / "kafka_sink.yaml").write_text(SINK, encoding="utf-8")
    (root / "projects" / "p" / "tasks" / "t.sql").write_text(task, encoding="utf-8")
    (root / ".gitignore").write_text(".flinkx-cache/\nbuild/\n", encoding="utf-8")
    return root


def commit(root: Path, message: str) -> None:
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=root, check=True)
    subprocess.run([*GIT, "commit", "-qm", message], cwd=root, check=True)


def tree_state(root: Path) -> dict[str, int]:
    """Every file under `root` (the cache folder aside) and its size: what a run may not change."""
    return {str(p.relative_to(root)): p.stat().st_size for p in sorted(root.rglob("*"))
            if p.is_file() and ".flinkx-cache" not in p.parts and ".git" not in p.parts}
