"""Run the restore suite on a live cluster: what Flink does with each edited job and its base's savepoint.

The measured method (FIELD-NOTES, "Savepoint restores of SQL jobs"): the base job runs a few seconds, is
stopped with a savepoint, and the edited job is submitted from it with non-restored state not allowed and no
restart strategy. "restored": RUNNING for `observe` seconds, no exception, and its checkpoint statistics name
the savepoint (`latest.restored`). Every edit Flink refuses is submitted once more without the savepoint: if it
runs, the refusal was the restore's ("refused"); if not, the edited SQL itself is broken ("broken", a bug of
the case). Jobs are submitted by flinkx's planner driver on the cluster's Flink version, as `flinkx deploy`
submits them; cases run side by side (one slot each), bases are shared.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path
from typing import Any

from flinkx_build.deploy.cluster import FlinkRest
from flinkx_build.deploy.compat import CompiledJob
from flinkx_build.deploy.compat import Operator
from flinkx_build.deploy.compat import attach_unnamed
from flinkx_build.deploy.stable_ids import pins
from flinkx_build.deploy.submission import refusal
from flinkx_build.deploy.submission import submission_steps
from flinkx_build.deploy.submission import submit_options
from flinkx_build.java_jar import build_jar
from flinkx_build.planner import protocol
from flinkx_build.planner.process import Planner
from tests.deploy.restore_suite.cases import BASES
from tests.deploy.restore_suite.cases import Case
from tests.deploy.restore_suite.cases import statements

JAVA = Path(__file__).with_name("java")
# the jobs' own settings: a failed restore fails the job at once, checkpoints as deploy's jobs would take them
JOB_OPTIONS = {"restart-strategy.type": "none", "execution.checkpointing.interval": "5 s"}
# what a cluster for the suite needs: a slot per case run side by side, managed memory for window operators
SLOTS = 56
CLUSTER_SETTINGS = {"taskmanager.memory.process.size": "2600m", "taskmanager.memory.managed.size": "768m"}

_FAILURES = (("cannot-map", "Cannot map checkpoint/savepoint state"),
             ("key-serializer", "key serializer"),
             ("state-serializer", "state serializer"),
             ("state-migration", "StateMigrationException"))


def failure_kind(message: str) -> str:
    """The shape of a refused restore, from Flink's message: what the suite compares across runs."""
    for kind, needle in _FAILURES:
        if needle.lower() in message.lower():
            return kind
    return "other"


def normalized(message: str) -> str:
    """Flink's message without what changes from run to run (operator hashes, paths, job ids)."""
    text = re.sub(r"\b[0-9a-f]{32}\b", "<id>", message)
    text = re.sub(r"@[0-9a-f]{4,}\b", "", text)  # object identities of serializers
    text = re.sub(r"file:/\S*?/savepoint-[0-9a-f]+-[0-9a-f]+", "<savepoint>", text)
    text = re.sub(r"/tmp/\S+", "<tmp>", text)
    return text[:500]


def dimension_jar(lib: Path, javac: str, into: Path) -> Path:
    """The suite's lookup dimension connector, compiled against the cluster's Flink (`lib`)."""
    sources = sorted((JAVA / "src").rglob("*.java"))
    into.mkdir(parents=True, exist_ok=True)
    return build_jar(javac, "11", str(lib / "*"), sources, JAVA / "resources", into / "suite-dim", "suite-dim.jar")


@dataclass
class Outcome:
    outcome: str  # restored | refused | broken
    failure: str = ""  # failure_kind of a refusal
    message: str = ""  # Flink's words (normalized)
    stage: str = ""  # where Flink refused: at submission (the JobMaster) or while the job ran (a task)

    def to_data(self) -> dict[str, str]:
        return {k: v for k, v in self.__dict__.items() if v}


# how the edited job is submitted: as SQL (Flink's ids from the job's shape), and as flinkx deploy submits an
# upgrade (its compiled plan, each operator pinned to the id its state has in the savepoint)
MODES = ("sql", "pinned")


@dataclass
class Run:
    outcomes: dict[tuple[str, str], Outcome] = field(default_factory=dict)  # (mode, case)
    seconds: dict[str, float] = field(default_factory=dict)


class Suite:
    def __init__(self, planner: Planner, cluster_url: str, jars: list[Path], observe: float = 10.0,
                 warm: float = 5.0) -> None:
        self.planner, self.url, self.jars = planner, cluster_url, jars
        self.rest = FlinkRest(cluster_url)
        self.observe, self.warm = observe, warm
        self._compiled: dict[str, CompiledJob] = {}
        self.trial_seconds: list[float] = []

    def _request(self, sql: str, name: str, savepoint: str | None) -> dict:
        options = {**JOB_OPTIONS, **submit_options(self.url, name, self.jars, savepoint)}
        return protocol.submit_request(submission_steps(statements(sql)), options, {}, [] if self.jars else ["pipeline.jars"])

    def compiled(self, sql: str) -> CompiledJob:
        """The job a submission of `sql` runs, with the real connectors (deploy's compile before it pins)."""
        if sql not in self._compiled:
            answer = self.planner.ask({**self._request(sql, "suite", None), "deploy": "compile_job"})
            if "plan" not in answer:
                raise RuntimeError(f"the suite's job does not compile: {answer}")
            plan = json.loads(answer["plan"])
            self._compiled[sql] = CompiledJob(plan, attach_unnamed(plan, [Operator.from_data(o) for o in answer["operators"]]))
        return self._compiled[sql]

    def submit(self, sql: str, name: str, savepoint: str | None, pinned_from: str | None = None) -> tuple[str | None, str]:
        """(job id, "") or (None, why Flink refused the submission). `pinned_from`: the SQL of the job the savepoint
        is of: submit as flinkx deploy does, from the compiled plan with its operators pinned (stable_ids.py)."""
        request = self._request(sql, name, savepoint)
        if pinned_from is not None:
            new = self.compiled(sql)
            request = {**request, "plan": json.dumps(new.plan), "pins": pins(self.compiled(pinned_from), new)}
        answer = self.planner.ask(request)
        if answer.get("job_id"):
            return str(answer["job_id"]), ""
        if "messages" in answer:
            return None, refusal([str(m) for m in answer["messages"]])
        return None, str(answer.get("not_planned") or answer.get("error") or answer)

    def trial(self, sql: str, base_sql: str, savepoint: str) -> Outcome:
        """What flinkx deploy's restore trial (RestoreTrial.java) says of restoring `savepoint` into the pinned job."""
        new = self.compiled(sql)
        began = time.perf_counter()
        answer = self.planner.ask({**self._request(sql, "suite-trial", None), "deploy": "trial",
                                   "plan": json.dumps(new.plan), "pins": pins(self.compiled(base_sql), new),
                                   "savepoint": savepoint, "timeout_ms": 120_000})
        self.trial_seconds.append(time.perf_counter() - began)
        if answer.get("restored"):
            return Outcome("restored")
        why = refusal([str(m) for m in answer.get("refused") or answer.get("messages") or [str(answer)]])
        return Outcome("refused", failure_kind(why), normalized(why), "trial")

    def cancel(self, job_id: str) -> None:
        try:
            if self.rest.job(job_id).get("state") in ("RUNNING", "CREATED", "INITIALIZING", "RESTARTING"):
                self.rest._call("PATCH", f"/jobs/{job_id}?mode=cancel")
        except Exception:  # noqa: BLE001 - gone already
            pass

    def watch(self, jobs: dict[str, str], savepoints: dict[str, str | None]) -> dict[str, Outcome]:
        """Each job RUNNING for `observe` seconds without an exception (and restored, when it had a savepoint)."""
        for job_id in jobs.values():
            self.rest.wait_running(job_id, timeout=120)
        time.sleep(self.observe)
        out = {}
        for key, job_id in jobs.items():
            state = self.rest.job(job_id).get("state", "UNKNOWN")
            exceptions = self.rest.get(f"/jobs/{job_id}/exceptions")
            history = (exceptions.get("exceptionHistory") or {}).get("entries") or []
            if state != "RUNNING" or exceptions.get("root-exception") or history:
                message = self.rest.root_exception(job_id)
                out[key] = Outcome("refused", failure_kind(message), normalized(message), "run")
                continue
            expected = savepoints.get(key)
            restored = self.rest.restored_from(job_id) if expected else None
            if expected and (restored or "").rstrip("/") != expected.rstrip("/"):
                out[key] = Outcome("refused", "not-restored", f"RUNNING, but latest.restored is {restored!r}", "run")
            else:
                out[key] = Outcome("restored")
        for job_id in jobs.values():
            self.cancel(job_id)
        return out

    def run(self, cases: list[Case], fresh_runs: bool = True) -> Run:
        """`fresh_runs`: tell a refused restore from broken SQL (the script does; a check against recorded data
        need not, its refusals were told apart when they were recorded)."""
        result = Run()
        began = time.perf_counter()
        bases = sorted({c.base for c in cases})
        base_jobs = {}
        for base in bases:
            job_id, why = self.submit(BASES[base], f"suite-base:{base}", None)
            if job_id is None:
                raise RuntimeError(f"the suite's base job '{base}' was not submitted: {why}")
            base_jobs[base] = job_id
        for base, job_id in base_jobs.items():
            if self.rest.wait_running(job_id, timeout=120) != "RUNNING":
                raise RuntimeError(f"the suite's base job '{base}' does not run: {self.rest.root_exception(job_id)}")
        time.sleep(self.warm)
        savepoints = {}
        for base, job_id in base_jobs.items():
            taken = self.rest.stop_with_savepoint(job_id, None)
            if taken.location is None:
                raise RuntimeError(f"no savepoint of the suite's base job '{base}': {taken.failure}")
            savepoints[base] = taken.location
            self.rest.wait_terminal(job_id)
        result.seconds["bases"] = time.perf_counter() - began

        for mode in MODES:
            began = time.perf_counter()
            restoring, watched = {}, {}
            for case in cases:
                key = (mode, case.name)
                job_id, why = self.submit(case.edited, f"suite:{mode}:{case.name}", savepoints[case.base],
                                          BASES[case.base] if mode == "pinned" else None)
                if job_id is None:
                    result.outcomes[key] = Outcome("refused", failure_kind(why), normalized(why), "submit")
                else:
                    restoring[key] = job_id
                    watched[key] = savepoints[case.base]
            result.outcomes.update(self.watch(restoring, watched))
            result.seconds[f"restores ({mode})"] = time.perf_counter() - began

        began = time.perf_counter()
        for case in cases:  # deploy's restore trial of the same savepoint, in the driver's MiniCluster
            result.outcomes[("trial", case.name)] = self.trial(case.edited, BASES[case.base], savepoints[case.base])
        result.seconds["trials"] = time.perf_counter() - began
        result.seconds["slowest trial"] = max(self.trial_seconds, default=0.0)

        if not fresh_runs:
            return result
        began = time.perf_counter()
        fresh = {}
        for case in cases:  # once per case: a mode does not change the SQL
            if all(result.outcomes[(mode, case.name)].outcome == "restored" for mode in MODES):
                continue
            job_id, why = self.submit(case.edited, f"suite-fresh:{case.name}", None)
            if job_id is None:
                fresh[case.name] = None
                broken = Outcome("broken", "", normalized(why), "submit")
                for mode in MODES:
                    result.outcomes[(mode, case.name)] = broken
            else:
                fresh[case.name] = job_id
        for name, outcome in self.watch({k: v for k, v in fresh.items() if v}, {}).items():
            if outcome.outcome != "restored":
                for mode in MODES:
                    result.outcomes[(mode, name)] = Outcome("broken", "", f"fails without the savepoint too: {outcome.message}", "run")
        result.seconds["fresh runs"] = time.perf_counter() - began
        return result


def outcomes_data(run: Run, flink_version: str) -> dict[str, Any]:
    """"cases": Flink's outcome with the edited SQL submitted as SQL; "pinned": submitted as flinkx deploy does;
    "trial": what deploy's restore trial said of the pinned job, before anything was submitted."""
    return {"flink_version": flink_version,
            "cases": {name: o.to_data() for (mode, name), o in sorted(run.outcomes.items()) if mode == "sql"},
            "pinned": {name: o.to_data() for (mode, name), o in sorted(run.outcomes.items()) if mode == "pinned"},
            "trial": {name: o.to_data() for (mode, name), o in sorted(run.outcomes.items()) if mode == "trial"},
            "seconds": {k: round(v, 1) for k, v in run.seconds.items()}}
