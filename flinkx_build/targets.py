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
# what Flink's own distribution starts every JVM with on Java 17 since 1.18 (`env.java.opts.all` in its
# conf/config.yaml): a release older than that reaches into the JDK by reflection (1.15's ClosureCleaner on
# any VALUES or source plan fails with InaccessibleObjectException without them)
JAVA17_OPENS = tuple(
    [f"--add-exports={m}=ALL-UNNAMED" for m in (
        "java.base/sun.net.util", "java.rmi/sun.rmi.registry", "jdk.compiler/com.sun.tools.javac.api",
        "jdk.compiler/com.sun.tools.javac.file", "jdk.compiler/com.sun.tools.javac.parser",
        "jdk.compiler/com.sun.tools.javac.tree", "jdk.compiler/com.sun.tools.javac.util",
        "java.security.jgss/sun.security.krb5")]
    + [f"--add-opens=java.base/{p}=ALL-UNNAMED" for p in (
        "java.lang", "java.net", "java.io", "java.nio", "sun.nio.ch", "java.lang.reflect", "java.text", "java.time",
        "java.util", "java.util.concurrent", "java.util.concurrent.atomic", "java.util.concurrent.locks")])


@dataclass(frozen=True)
class Target:
    version: str  # as written in flinkx.yaml: "major.minor"
    release: str  # the exact apache-flink-libraries release whose jars plan and run it
    archive_kind: str  # WHEEL or SDIST: how that release is published on the package index
    archive_sha256: str  # of that archive: anything else is refused before it is opened or run
    archive_mb: int  # its size, for the progress line
    java: tuple[int, int]  # the Java feature releases it runs on (the driver needs 17: a unix socket, --release 17)
    runs: frozenset[str] = COMMANDS
    # the driver's classes whose Flink API differs between releases: planner/java/api/<this>/, written against the
    # API of that Flink release and the ones after it that kept it (docs/decisions.md: one stand-in, a few shims)
    driver_api: str = "1.19"
    # how a source archive spells the project in its file and top folder name: underscores since setuptools
    # followed PEP 625 (1.20.5), the project's own hyphens before (1.15.4)
    sdist_stem: str = "apache_flink_libraries"
    # JVM options every JVM on the target's jars needs (the driver's, the facts generator's)
    jvm_args: tuple[str, ...] = ()

    @property
    def archive_name(self) -> str:
        if self.archive_kind == WHEEL:
            return f"apache_flink_libraries-{self.release}-py2.py3-none-any.whl"
        return f"{self.sdist_stem}-{self.release}.tar.gz"

    @property
    def lib_member(self) -> tuple[str, ...]:
        """The folder of the archive whose `*.jar` files are the distribution's lib/."""
        if self.archive_kind == WHEEL:
            return ("pyflink", "lib")
        return (f"{self.sdist_stem}-{self.release}", "deps", "lib")


TARGETS: dict[str, Target] = {
    # Huawei DLI's Flink 1.15: its planner and runtime (docs/targets.md: deploy does not run on it yet)
    "1.15": Target("1.15", "1.15.4", SDIST, "f4f622f55198073ee1be7db14ae2efe89af1a6fc9e4da8bc6e4759d7fa84f58a",
                   234, (17, 17), COMMANDS - {"deploy"}, driver_api="1.15",
                   sdist_stem="apache-flink-libraries", jvm_args=JAVA17_OPENS),
    "1.20": Target("1.20", "1.20.5", SDIST, "e6aee62ea1a1fe7b32e28894ad079f3f1a50a372a4caac3df52405267f4228c8",
                   232, (17, 21)),
    "2.3": Target("2.3", "2.3.0", WHEEL, "38ece876553286b3a285cf344c2d2038f8a7ca10da5df54d5107250386d64151",
                  330, (17, 21)),
}


def target(flink_version: str) -> Target | None:
    """The target `flink_version` names, or None when flinkx has no planner for it."""
    return TARGETS.get(flink_version.strip())


def supported(command: str = "") -> str:
    """The versions flinkx plans on (those `command` runs on, when given), for messages: "1.20, 2.3"."""
    return ", ".join(v for v, t in TARGETS.items() if not command or command in t.runs)
