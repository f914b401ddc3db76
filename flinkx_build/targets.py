"""The Flink versions flinkx plans on: one row per target, the one place that says where its jars come from.

`flink_version` in flinkx.yaml selects a target. Its jars are those of PyPI's `apache-flink-libraries`
wheel of the same version (`pyflink/lib/*.jar`): for the default target they are already installed with
the `flink` extra; for the others `planner/jars.py` fetches the pinned wheel once into the user cache.
Adding a version is one row here (docs/targets.md says how to get the checksum).
"""
from __future__ import annotations

from dataclasses import dataclass

DEFAULT_VERSION = "1.20"


@dataclass(frozen=True)
class Target:
    version: str  # as written in flinkx.yaml: "major.minor"
    libraries_version: str  # the exact apache-flink-libraries release whose jars plan it
    # sha256 of that release's wheel on the package index; "" = the jars come only from the installed
    # `flink` extra (1.x releases of apache-flink-libraries are source archives, no wheel to pin)
    wheel_sha256: str
    from_extra: bool  # the `flink` extra installs this version's jars (pyflink/lib in site-packages)

    @property
    def wheel_name(self) -> str:
        return f"apache_flink_libraries-{self.libraries_version}-py2.py3-none-any.whl"


TARGETS: dict[str, Target] = {
    "1.20": Target("1.20", "1.20.5", "", True),
    "2.3": Target("2.3", "2.3.0", "38ece876553286b3a285cf344c2d2038f8a7ca10da5df54d5107250386d64151", False),
}


def target(flink_version: str) -> Target | None:
    """The target `flink_version` names, or None when flinkx has no planner for it."""
    return TARGETS.get(flink_version.strip())


def supported() -> str:
    """The versions flinkx plans on, for messages: "1.20, 2.3"."""
    return ", ".join(TARGETS)
