"""Talk to a planner driver: a child process over its stdin and stdout, or the warm service over its socket.

Both give `validate(script) -> list[FlinkFinding]` and `ask(request)`, so validate, impact, lint, test and
deploy use either the same way. Every wait has a deadline: a
planner that stops answering becomes one finding ("validation stopped"), never a hang.
"""
from __future__ import annotations

import collections
import json
import os
import queue
import socket
import subprocess
import threading
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from types import TracebackType
from typing import IO
from typing import Any

from flinkx_build import child_process
from flinkx_build.planner import protocol
from flinkx_build.validate.contract import FlinkFinding
from flinkx_build.validate.contract import ScriptToValidate

# planning needs little heap (peak RSS about 300 MB for 200 statements), Calcite a deep stack
JVM_ARGS = ["-Xmx512m", "-Xss4m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
START_TIMEOUT = 180.0  # a cold JVM on a busy two-core machine took 12 s for Flink 2.3
# a task's planning budget, checked by the driver (Driver.java stops the planning past it: FX306); a normal
# task plans in well under a second, the first of a fresh JVM in about 8 s on a busy two-core machine
BUDGET_ENV = "FLINKX_PLANNER_BUDGET_SECONDS"
BUDGET_SECONDS = 120.0
# the client's own deadline for an answer: the budget, plus the wait for the tasks of other runs the warm
# service plans first (one at a time), plus the stop
TASK_TIMEOUT = 600.0
# how many tasks one lint plans at once (its conversations with the service; the service plans as many at once on
# a TableEnvironment each): one a core, as measured best on two cores (docs/performance.md); at most 4, so a
# many-core machine's driver stays well inside its heap
WORKERS_ENV = "FLINKX_PLANNER_WORKERS"
MAX_WORKERS = 4


def budget_ms() -> int:
    """The planning budget of one task, in milliseconds (`$FLINKX_PLANNER_BUDGET_SECONDS`, else 120 s)."""
    try:
        seconds = float(os.environ.get(BUDGET_ENV, ""))
    except ValueError:
        seconds = BUDGET_SECONDS
    return max(int(seconds * 1000), 1) if seconds > 0 else int(BUDGET_SECONDS * 1000)


def workers() -> int:
    """Tasks planned at once (`$FLINKX_PLANNER_WORKERS`, else one a core, at most MAX_WORKERS)."""
    try:
        wanted = int(os.environ.get(WORKERS_ENV, ""))
    except ValueError:
        wanted = os.cpu_count() or 1
    return max(1, min(wanted, MAX_WORKERS))


class PlannerStopped(Exception):
    """The driver died or stopped answering."""


class PlannerTimeout(PlannerStopped):
    """The driver is there but did not answer in time."""


@dataclass
class PlannerStats:
    start: float = 0.0  # seconds until the driver answered its first line
    tasks: int = 0
    planning: float = 0.0  # seconds spent in planning answers, summed
    per_task: dict[str, float] = field(default_factory=dict)


def command(java: str, jar: Path, lib: Path, *mode: str, jars: tuple[Path, ...] = (),
            jvm_args: tuple[str, ...] = ()) -> list[str]:
    """The driver's command line: only flinkx's jar and the target's jars on the class path (and, for
    `flinkx deploy --apply` alone, the operator's connector jars `jars`); `jvm_args` are the target's."""
    extra = os.environ.get("JVM_ARGS", "").split()  # the user's, last so they win (as for the gateway)
    # absolute: the driver runs in flinkx's own working folder (child_process.py), not the caller's
    path = os.pathsep.join([str(jar.resolve()), str(lib.resolve() / "*"), *(str(j.resolve()) for j in jars)])
    # the driver plans as many tasks at once as a lint sends (Driver.java: a TableEnvironment each)
    return [java, *JVM_ARGS, f"-Dflinkx.planners={workers()}", *jvm_args, *extra, "-cp", path, "flinkx.planner.Driver",
            *mode]


class _Lines:
    """JSON lines from a stream, read on a thread so every wait can time out."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._queue: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(stream.readline, b""):
                self._queue.put(raw)
        except (OSError, ValueError):
            pass
        self._queue.put(None)

    def next(self, timeout: float) -> dict[str, Any]:
        try:
            raw = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise PlannerTimeout(f"the planner did not answer within {timeout:.0f} s") from None
        if raw is None:
            raise PlannerStopped("the planner ended")
        try:
            answer = json.loads(raw)
        except ValueError:
            raise PlannerStopped(f"the planner said something that is not JSON: {raw[:80]!r}") from None
        return answer if isinstance(answer, dict) else {"error": "an answer that is not an object"}


class Planner:
    """A conversation with one driver: the policy first, then one request per task."""

    def __init__(self, writer: IO[bytes], reader: IO[bytes], started: float) -> None:
        self._writer = writer
        self._lines = _Lines(reader)
        self._next_id = 0
        self.stats = PlannerStats()
        self.flink_version = ""
        self._send(protocol.policy())
        self._answer(START_TIMEOUT)
        self._send({"ping": True})
        self.flink_version = str(self._answer(START_TIMEOUT).get("flink", ""))
        self.stats.start = time.perf_counter() - started

    def _send(self, message: dict[str, Any]) -> None:
        try:
            self._writer.write(json.dumps(message).encode() + b"\n")
            self._writer.flush()
        except (OSError, ValueError) as exc:
            raise PlannerStopped(f"the planner is gone ({exc})") from None

    def _answer(self, timeout: float) -> dict[str, Any]:
        return self._lines.next(timeout)

    def validate(self, script: ScriptToValidate) -> list[FlinkFinding]:
        began = time.perf_counter()
        try:
            self._next_id += 1
            self._send(protocol.request_for(script, self._next_id, budget_ms()))
            answer = self._answer(TASK_TIMEOUT)
            return protocol.findings_from(script, answer)
        except PlannerStopped as exc:
            self.close()
            return [protocol.stopped(script, str(exc))]
        finally:
            spent = time.perf_counter() - began
            self.stats.tasks += 1
            self.stats.planning += spent
            self.stats.per_task[script.key] = spent

    def ask(self, request: dict[str, Any], timeout: float = TASK_TIMEOUT) -> dict[str, Any]:
        """One request of another kind than planning (deploy's: DeployClient.java; a test case's:
        testing/run.py) and its answer; PlannerStopped (PlannerTimeout) when the driver is gone
        (does not answer within `timeout`)."""
        self._next_id += 1
        self._send({**request, "id": self._next_id})
        return self._answer(timeout)

    def close(self) -> None:
        try:
            self._writer.close()
        except OSError:
            pass

    def __enter__(self) -> Planner:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class ChildPlanner(Planner):
    """A driver of this run's own (`--stdio`): ends when its stdin closes, i.e. with this process."""

    def __init__(self, java: str, jar: Path, lib: Path, jars: tuple[Path, ...] = (),
                 jvm_args: tuple[str, ...] = ()) -> None:
        started = time.perf_counter()
        self._process = child_process.popen(command(java, jar, lib, "--stdio", jars=jars, jvm_args=jvm_args),
                                            stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        threading.Thread(target=self._drain, daemon=True).start()
        assert self._process.stdin is not None and self._process.stdout is not None
        try:
            super().__init__(self._process.stdin, self._process.stdout, started)
        except PlannerStopped as exc:
            self.close()
            raise PlannerStopped(f"{exc}: {' | '.join(list(self.stderr_tail)[-3:])}") from None

    def _drain(self) -> None:
        stream = self._process.stderr
        try:
            for raw in iter(stream.readline, b""):  # type: ignore[union-attr]
                self.stderr_tail.append(raw.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        super().close()
        for stop in (None, self._process.terminate, self._process.kill):
            if stop is not None:
                stop()
            try:
                self._process.wait(timeout=5)
                return
            except subprocess.TimeoutExpired:
                continue


class SocketPlanner(Planner):
    """A conversation with the warm service (`service.py`) over its unix socket."""

    def __init__(self, sock: socket.socket, started: float) -> None:
        self._socket = sock
        # a reader and a writer of their own: closing one never waits on the reading thread's lock
        super().__init__(sock.makefile("wb"), sock.makefile("rb"), started)

    def close(self) -> None:
        try:
            self._socket.shutdown(socket.SHUT_RDWR)  # ends the reading thread's wait
        except OSError:
            pass
        super().close()
        try:
            self._socket.close()
        except OSError:
            pass
