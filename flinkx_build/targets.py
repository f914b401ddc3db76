"""The Flink versions flinkx plans on: one row per target, the one place that says where its jars come from.

`flink_version` in flinkx.yaml selects a target. Its jars are those of PyPI's `apache-flink-libraries` of
the same release: a wheel for 2.x (`pyflink/lib/*.jar`), a source archive for 1.x (`deps/lib/*.jar`; 1.x
was never published as a wheel). `planner/jars.py` fetches the pinned archive once into the user cache
(or takes a local Flink distribution, `$FLINKX_FLINK_HOME`). Every command runs on flinkx's planner driver
on those jars; nothing else in the code names a release or switches on one. Adding a version is one row
here (docs/flink-versions.md says how to get the checksum).
"""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT_VERSION = "1.20"
# what a target can run; a target missing one of them makes that command say so in one line
COMMANDS = frozenset({"lint", "validate", "test", "deploy", "upgrade-check"})
WHEEL = "wheel"
SDIST = "sdist"


@dataclass(frozen=True)
class Target:
    version: str  # as written in flinkx.yaml: "major.minor"
    release: str  # the exact apache-flink-libraries release whose jars plan and run it
    archive_kind: str  # WHEEL or SDIST: how that release is published on the package index
    archive_sha256: str  # of that archive: anything else is refused before it is opened or run
    archive_mb: int  # its size, for the progress line
    java: tuple[int, int]  # the Java feature releases it runs on (the driver needs 17: a unix socket, --release 17)
    runs: frozenset[str] = COMMANDS

    @property
    def archive_name(self) -> str:
        if self.archive_kind == WHEEL:
            return f"apache_flink_libraries-{self.release}-py2.py3-none-any.whl"
        return f"apache_flink_libraries-{self.release}.tar.gz"

    @property
    def lib_member(self) -> tuple[str, ...]:
        """The folder of the archive whose `*.jar` files are the distribution's lib/."""
        if self.archive_kind == WHEEL:
            return ("pyflink", "lib")
        return (f"apache_flink_libraries-{self.release}", "deps", "lib")


TARGETS: dict[str, Target] = {
    "1.20": Target("1.20", "1.20.5", SDIST, "e6aee62ea1a1fe7b32e28894ad079f3f1a50a372a4caac3df52405267f4228c8",
                   232, (17, 21)),
    "2.3": Target("2.3", "2.3.0", WHEEL, "38ece876553286b3a285cf344c2d2038f8a7ca10da5df54d5107250386d64151",
                  330, (17, 21)),
}


def target(flink_version: str) -> Target | None:
    """The target `flink_version` names, or None when flinkx has no planner for it."""
    return TARGETS.get(flink_version.strip())


def supported() -> str:
    """The versions flinkx plans on, for messages: "1.20, 2.3"."""
    return ", ".join(TARGETS)
