"""What each target engine accepts: the one table every stage reads.

Seeds 000-003 describe four engines: open-source Apache Flink, Alibaba's
Ververica Platform (VVR, Flink underneath), the older Alibaba Blink, and
Huawei MRS Flink. Where they differ (keys, hints, DDL form, what the embedded
Flink can check) the difference is written here once, never as an
`engine == "..."` test scattered through the code.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Engine:
    name: str
    label: str  # the "target" line of compiled files
    apache_flink: bool  # SQL is Apache Flink's: validate, test and deploy run it on the embedded Flink
    index_keys: bool  # INDEX / UNIQUE INDEX (SET, hints, legacy JOIN ... WITH (index = ...)); seed 000
    mrs_hints: bool  # DISTRIBUTEBY and LATE_DATA_SINK hints; seed 003
    engine_options: frozenset[str]  # table options only this engine has (source.parallelism on MRS)
    any_header: bool  # a header column may have any name (Blink's HEADER), else a connector metadata key
    blink_ddl: bool  # CREATE TABLE ... HEADER, PRIMARY KEY without NOT ENFORCED, no COMMENT, no TEMPORARY
    keeps_with_offset: bool  # the watermark's withOffset(ts, ms) stays as written
    # each INSERT outside a statement set is a job of its own (Apache Flink's SQL client and VVR run a script so);
    # Blink and MRS compile a task's script into one job, so two INSERTs into one table are not two jobs there
    insert_is_a_job: bool = False

    def format_target(self, flink_version: str) -> str:
        return self.label.format(flink_version=flink_version)


ENGINES: dict[str, Engine] = {
    "flink": Engine("flink", "Apache Flink {flink_version}", True, False, False, frozenset(), False, False, False, True),
    "vvr": Engine("vvr", "Ververica (Flink {flink_version})", True, False, False, frozenset(), False, False, False, True),
    "blink": Engine("blink", "Alibaba Blink", False, True, False, frozenset(), True, True, True),
    "mrs": Engine("mrs", "Huawei MRS Flink", False, False, True, frozenset({"source.parallelism"}), False, False, False),
}
# options any engine may know (the union): an option here but not in the engine's set is refused
ENGINE_ONLY_OPTIONS = frozenset().union(*(e.engine_options for e in ENGINES.values()))


def engine(name: str) -> Engine:
    """The engine called `name` (flinkx.yaml is validated against ENGINES when it loads)."""
    return ENGINES.get(name, ENGINES["flink"])


def engines_where(flag: str) -> tuple[str, ...]:
    """Names of the engines with a capability, for messages ("needs the blink engine")."""
    return tuple(name for name, e in ENGINES.items() if getattr(e, flag))
