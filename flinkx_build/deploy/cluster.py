"""A small client for Flink's REST API (standard library only): jobs, configs, savepoints.

Only the endpoints deploy needs. Every failure to reach the cluster becomes `ClusterError` with
one line that says which URL did not answer; the command turns it into exit code 2.
"""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

# States in which a job holds (or is about to hold) slots and state on the cluster.
ACTIVE_STATES = frozenset({"CREATED", "INITIALIZING", "RUNNING", "RESTARTING", "FAILING",
                           "CANCELLING", "RECONCILING", "SUSPENDED"})
TROUBLED_STATES = frozenset({"RESTARTING", "FAILING"})


class ClusterError(Exception):
    """The cluster did not answer, or answered an error; the message is one line."""


@dataclass(frozen=True)
class JobSummary:
    job_id: str
    name: str
    state: str
    start_time: int


@dataclass(frozen=True)
class SavepointResult:
    location: str | None
    failure: str | None


class FlinkRest:
    def __init__(self, url: str, timeout: float = 10.0) -> None:
        parsed = urllib.parse.urlparse(url if "://" in url else f"http://{url}")
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ClusterError(f"--cluster must be an http(s) URL such as http://127.0.0.1:8081, not '{url}'")
        self.url = f"{parsed.scheme}://{parsed.netloc}{parsed.path.rstrip('/')}"
        self.timeout = timeout

    # --- transport -------------------------------------------------------------------------

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            raise ClusterError(f"Flink REST {method} {path} answered {exc.code}: {_rest_errors(exc)}") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise ClusterError(f"cannot reach the Flink cluster at {self.url} ({reason})") from None
        try:
            return json.loads(raw) if raw else {}
        except ValueError:
            raise ClusterError(f"{self.url}{path} did not answer JSON: is this Flink's REST endpoint?") from None

    def get(self, path: str) -> Any:
        return self._call("GET", path)

    # --- endpoints -------------------------------------------------------------------------

    def overview(self) -> dict[str, Any]:
        return self.get("/overview")

    def jobs(self) -> list[JobSummary]:
        data = self.get("/jobs/overview")
        return [JobSummary(j["jid"], j["name"], j["state"], int(j.get("start-time", 0))) for j in data.get("jobs", [])]

    def job(self, job_id: str) -> dict[str, Any]:
        return self.get(f"/jobs/{job_id}")

    def user_config(self, job_id: str) -> dict[str, str]:
        """The job's global job parameters (`execution-config.user-config`)."""
        config = self.get(f"/jobs/{job_id}/config")
        return dict(config.get("execution-config", {}).get("user-config") or {})

    def restored_from(self, job_id: str) -> str | None:
        """The savepoint or checkpoint the job restored from, per its checkpoint statistics."""
        stats = self.get(f"/jobs/{job_id}/checkpoints")
        restored = (stats.get("latest") or {}).get("restored")
        return restored.get("external_path") if restored else None

    def root_exception(self, job_id: str) -> str:
        """The innermost 'Caused by' of the job's root exception, one line."""
        data = self.get(f"/jobs/{job_id}/exceptions")
        # Flink 2.x answers only the exception history (`root-exception` was removed in 2.0, measured on 2.3.0)
        entries = (data.get("exceptionHistory") or {}).get("entries") or [{}]
        text = data.get("root-exception") or entries[0].get("stacktrace") or ""
        causes = [line.strip()[len("Caused by: "):] for line in text.splitlines() if line.strip().startswith("Caused by: ")]
        first = text.splitlines()[0] if text else "no exception recorded"
        return (causes[-1] if causes else first)[:400]

    def stop_with_savepoint(self, job_id: str, target_dir: str | None, timeout: float = 120.0) -> SavepointResult:
        body: dict[str, Any] = {"drain": False}
        if target_dir:
            body["targetDirectory"] = target_dir
        request_id = self._call("POST", f"/jobs/{job_id}/stop", body)["request-id"]
        return self._await_savepoint(job_id, request_id, timeout)

    def savepoint(self, job_id: str, target_dir: str | None, timeout: float = 120.0) -> SavepointResult:
        """A savepoint of a job that keeps running (`cancel-job: false`), in the cluster's own storage unless
        `target_dir` names another."""
        body: dict[str, Any] = {"cancel-job": False}
        if target_dir:
            body["target-directory"] = target_dir
        request_id = self._call("POST", f"/jobs/{job_id}/savepoints", body)["request-id"]
        return self._await_savepoint(job_id, request_id, timeout)

    def latest_retained(self, job_id: str) -> str | None:
        """The newest savepoint or retained (externalized) checkpoint of the job, per its checkpoint statistics."""
        latest = self.get(f"/jobs/{job_id}/checkpoints").get("latest") or {}
        found = [c for c in (latest.get("savepoint"), latest.get("completed")) if c and c.get("external_path")
                 and not str(c.get("external_path")).startswith("<")]
        found.sort(key=lambda c: int(c.get("latest_ack_timestamp") or c.get("trigger_timestamp") or 0), reverse=True)
        return str(found[0]["external_path"]) if found else None

    def _await_savepoint(self, job_id: str, request_id: str, timeout: float) -> SavepointResult:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.get(f"/jobs/{job_id}/savepoints/{request_id}")
            if status.get("status", {}).get("id") == "COMPLETED":
                operation = status.get("operation") or {}
                if "location" in operation:
                    return SavepointResult(operation["location"], None)
                cause = operation.get("failure-cause") or {}
                return SavepointResult(None, _first_line(cause.get("stack-trace") or cause.get("class") or "savepoint failed"))
            time.sleep(0.2)
        return SavepointResult(None, f"no savepoint after {timeout:.0f} s")

    def wait_terminal(self, job_id: str, timeout: float = 60.0) -> str:
        """After stop-with-savepoint the savepoint completes first, the job ends a moment later."""
        deadline = time.monotonic() + timeout
        state = self.job(job_id).get("state", "UNKNOWN")
        while state in ACTIVE_STATES and time.monotonic() < deadline:
            time.sleep(0.2)
            state = self.job(job_id).get("state", "UNKNOWN")
        return state

    def wait_running(self, job_id: str, timeout: float = 90.0) -> str:
        """Wait until the job and all its tasks run, or it fails: the final state seen."""
        deadline = time.monotonic() + timeout
        state = "UNKNOWN"
        while time.monotonic() < deadline:
            job = self.job(job_id)
            state = job.get("state", "UNKNOWN")
            if state == "RUNNING" and all(v.get("status") == "RUNNING" for v in job.get("vertices", [])):
                return state
            if state in ("FAILED", "CANCELED", "FINISHED", "RESTARTING"):
                return state
            time.sleep(0.3)
        return state


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    causes = [line[len("Caused by: "):] for line in lines if line.startswith("Caused by: ")]
    return (causes[-1] if causes else (lines[0] if lines else text))[:400]


def _rest_errors(exc: urllib.error.HTTPError) -> str:
    try:
        errors = json.loads(exc.read() or b"{}").get("errors") or []
    except ValueError:
        errors = []
    return _first_line(str(errors[0])) if errors else str(exc.reason)
