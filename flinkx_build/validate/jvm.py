"""The JVM side of validation: find Java and PyFlink, build the stand-in jar, start one gateway.

Nothing here imports PyFlink at module level: `find_toolchain` must answer quickly (no JVM, no
heavy imports) so that `flinkx` can say "install the [flink] extra" without paying for it.

The gateway is launched with PyFlink's own launcher (`launch_gateway_server_process`), but the
process handle stays with us instead of in PyFlink's global: we pass the environment explicitly
(log dir, heap, extra classpath) and can stop exactly the process we started.
"""
from __future__ import annotations

import collections
import hashlib
import importlib.util
import os
import shutil
import struct
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from dataclasses import field
from importlib import metadata
from pathlib import Path
from typing import Any

from flinkx_build.cache_root import HOME_ENV
from flinkx_build.child_process import java_tool
from flinkx_build.cache_root import private_folder
from flinkx_build.cache_root import user_cache_dir
from flinkx_build.java_jar import JavacFailed
from flinkx_build.java_jar import build_jar

JAVA_DIR = Path(__file__).with_name("java")
JAR_NAME = "flinkx-standin.jar"
# Heap and stack for the gateway JVM. 512 MB is plenty for planning (peak RSS about 300 MB for
# a 200-statement run); a larger stack keeps Calcite's recursive planner safe on deep queries.
DEFAULT_JVM_ARGS = "-Xmx512m -Xss4m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"
INSTALL_HINT = 'pip install "flinkx-build[flink]" (PyFlink 1.20) and a Java 17 JDK (java and javac)'
# PyFlink is there but Java is not: the fix is a JDK, not the [flink] extra
JAVA_MISSING = "Java was not found: install a Java 17 JDK (java and javac) and put it on PATH or set JAVA_HOME"


@dataclass(frozen=True)
class Toolchain:
    java: str
    javac: str | None  # only needed when the stand-in jar is not cached yet
    flink_home: Path
    flink_version: str




def find_toolchain() -> Toolchain | str:
    """The tools validation needs, or a one-line reason why they are missing (without the
    install hint, which FlinkUnavailable adds). Starts nothing."""
    spec = importlib.util.find_spec("pyflink")
    if spec is None or not spec.submodule_search_locations:
        return "PyFlink is not installed"
    if importlib.util.find_spec("py4j") is None:
        return "py4j (a PyFlink dependency) is not installed"
    flink_home = Path(os.environ.get("FLINK_HOME") or next(iter(spec.submodule_search_locations)))
    if not (flink_home / "lib").is_dir() or not list((flink_home / "lib").glob("flink-dist*.jar")):
        return f"PyFlink at {flink_home} has no lib/flink-dist jar"
    java = java_tool("java")
    if java is None:
        return JAVA_MISSING
    try:
        version = metadata.version("apache-flink")
    except metadata.PackageNotFoundError:
        version = "unknown"
    return Toolchain(java=java, javac=java_tool("javac"), flink_home=flink_home,
                     flink_version=version)


def _java_sources() -> list[Path]:
    return sorted(p for p in JAVA_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts)


def sources_hash(toolchain: Toolchain) -> str:
    """Changes when the Java sources or the Flink they compile against change."""
    digest = hashlib.sha256(toolchain.flink_version.encode())
    for path in _java_sources():
        digest.update(path.relative_to(JAVA_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def standin_jar(toolchain: Toolchain) -> Path:
    """Compile the stand-in connector and functions once per source hash; return the jar.

    Kept in the user's cache folder, never the workspace's: a jar there runs as code in the JVM,
    and a pull request can commit files into the workspace's cache under the very name this one
    has (`cache_root.py`). Built in a temporary directory and renamed into place, so a concurrent
    run or a crash never leaves a half-written jar behind the final name.
    """
    try:
        root = private_folder(user_cache_dir()) / "standin-jar"
    except OSError as exc:
        raise RuntimeError(f"flinkx's own cache folder cannot hold the stand-in jar ({exc}); set {HOME_ENV} "
                           "to a folder of yours") from None
    final_dir = root / sources_hash(toolchain)
    jar = final_dir / JAR_NAME
    if jar.is_file():
        return jar
    if toolchain.javac is None:
        raise RuntimeError(f"javac was not found, needed once to build the stand-in jar: "
                           f"{INSTALL_HINT}")
    root.mkdir(parents=True, exist_ok=True)
    classpath = os.pathsep.join(str(toolchain.flink_home / d / "*") for d in ("lib", "opt"))
    try:
        # --release 11: Flink 1.20 also runs on Java 11, and the classes then load on either.
        return build_jar(toolchain.javac, "11", classpath, list(_java_sources()), JAVA_DIR / "resources", final_dir, JAR_NAME)
    except JavacFailed as exc:
        raise RuntimeError(f"javac failed on the stand-in sources: {exc}") from None


@dataclass
class Gateway:
    """A running gateway JVM and the py4j client talking to it."""

    process: subprocess.Popen
    client: Any  # py4j.java_gateway.JavaGateway
    stderr_tail: collections.deque = field(default_factory=lambda: collections.deque(maxlen=40))

    @property
    def jvm(self) -> Any:
        return self.client.jvm

    def alive(self) -> bool:
        return self.process.poll() is None


def _drain(stream: Any, tail: collections.deque) -> None:
    # The launcher gives the JVM a stderr pipe; nobody else reads it, and a full pipe would
    # block the JVM. Keep the last lines for error messages.
    try:
        for raw in iter(stream.readline, b""):
            tail.append(raw.decode("utf-8", "replace").rstrip())
    except (OSError, ValueError):
        pass


def launch(toolchain: Toolchain, extra_classpath: list[Path], log_dir: Path,
           timeout: float = 60.0) -> Gateway:
    from py4j.java_gateway import GatewayParameters
    from py4j.java_gateway import JavaGateway
    from pyflink.pyflink_gateway_server import launch_gateway_server_process

    # a real folder of this user (never a link): the JVM opens its log file there following links
    if log_dir.is_relative_to(user_cache_dir()):
        private_folder(user_cache_dir())  # owner-only before anything is made in it
    private_folder(log_dir)
    conn_dir = tempfile.mkdtemp(prefix="flinkx-gw-")
    conn_file = os.path.join(conn_dir, "conn")
    env = dict(os.environ)
    env["_PYFLINK_CONN_INFO_PATH"] = conn_file
    # Otherwise PyFlink writes its log file into site-packages.
    env["FLINK_LOG_DIR"] = str(log_dir)
    env["FLINK_HOME"] = str(toolchain.flink_home)
    # The launcher takes java from JAVA_HOME: make it the java we found, when that is a JDK
    # layout (a wrapper script elsewhere is left to the launcher's own PATH lookup).
    java_home = Path(toolchain.java).resolve().parent.parent
    if (java_home / "bin" / "java").is_file():
        env["JAVA_HOME"] = str(java_home)
    # The launcher appends HADOOP_CLASSPATH to the JVM classpath: the simplest way to put the
    # stand-in jar where Flink's ServiceLoader-based FactoryUtil finds it.
    env["HADOOP_CLASSPATH"] = os.pathsep.join(
        [str(p) for p in extra_classpath] + ([env["HADOOP_CLASSPATH"]]
                                            if env.get("HADOOP_CLASSPATH") else []))
    # User-given JVM_ARGS come last so that they win over ours.
    env["JVM_ARGS"] = (DEFAULT_JVM_ARGS + " " + env.get("JVM_ARGS", "")).strip()
    process = launch_gateway_server_process(
        env, ["-c", "org.apache.flink.client.python.PythonGatewayServer", "local"])
    tail: collections.deque = collections.deque(maxlen=40)
    threading.Thread(target=_drain, args=(process.stderr, tail), daemon=True).start()
    try:
        port = _wait_for_port(process, conn_file, tail, time.monotonic() + timeout)
        client = JavaGateway(gateway_parameters=GatewayParameters(port=port, auto_convert=True))
        # Without a "Watchdog" entry the gateway exits 10 s after start; ours (in the stand-in
        # jar) ends the JVM when our end of its stdin pipe closes, i.e. when this process ends.
        client.entry_point.put("Watchdog", client.jvm.flinkx.standin.StdinWatchdog())
    except BaseException:
        process.kill()
        process.wait()
        raise
    finally:
        shutil.rmtree(conn_dir, ignore_errors=True)
    return Gateway(process=process, client=client, stderr_tail=tail)


def _wait_for_port(process: subprocess.Popen, conn_file: str, tail: collections.deque,
                   deadline: float) -> int:
    """The gateway's port, from the handshake file the JVM renames into place when ready."""
    while process.poll() is None and not os.path.isfile(conn_file):
        if time.monotonic() > deadline:
            raise RuntimeError("the Flink JVM did not start in time")
        time.sleep(0.02)
    if not os.path.isfile(conn_file):
        time.sleep(0.05)  # let the stderr reader catch the last lines
        raise RuntimeError("the Flink JVM did not start: " + " | ".join(list(tail)[-5:]))
    data = Path(conn_file).read_bytes()
    return int(struct.unpack("!I", data[:4])[0])


def stop(gateway: Gateway) -> None:
    """Stop the JVM we started (and only it)."""
    try:
        # Marks the client disconnected first, so proxies garbage-collected later do not try
        # to reach a dead JVM (py4j would log a traceback for each).
        gateway.client.shutdown()
    except Exception:  # noqa: BLE001 - the JVM may already be gone
        pass
    process = gateway.process
    try:
        if process.stdin:
            process.stdin.close()  # the watchdog sees end-of-file and the JVM exits
    except OSError:
        pass
    for signal_process in (None, process.terminate, process.kill):
        if signal_process is not None:
            signal_process()
        try:
            process.wait(timeout=3)
            return
        except subprocess.TimeoutExpired:
            continue
