"""Which jars deploy's Flink client (the planner driver) loads and ships: named by the
workspace, provided by the host.

A jar on the client's classpath runs code while a job is planned (connector factories, function
classes), and `flinkx deploy --plan` / `flinkx impact --state-compat` run on pull requests. So the
workspace only *names* its jars (`deploy: {jars: [flink-sql-connector-kafka-3.3.0-1.20.jar]}`,
plain file names) and the deploying machine provides them in `$FLINKX_JAR_DIR`; a jar committed
inside a pull request is never loaded. `--jar PATH` (the operator's own command line) overrides.
"""
from __future__ import annotations

import os
from pathlib import Path

from flinkx_build.errors import UsageError

JAR_DIR_ENV = "FLINKX_JAR_DIR"


def deploy_jars(names: list[str], given: tuple[Path, ...] = (), env: dict[str, str] | None = None) -> list[Path]:
    """The jars to load, or a UsageError (FX605) that says what is missing."""
    if given:
        jars = [Path(p).resolve() for p in given]
    else:
        env = dict(os.environ) if env is None else env
        for name in names:
            if not name.endswith(".jar") or "/" in name or "\\" in name or name.startswith("."):
                raise UsageError(f"FX605 deploy.jars lists jar file names (found in ${JAR_DIR_ENV}), not '{name}'")
        folder = env.get(JAR_DIR_ENV)
        if names and not folder:
            raise UsageError(f"FX605 flinkx.yaml deploy.jars names {len(names)} jar(s): set {JAR_DIR_ENV} to the folder holding them, or pass --jar")
        jars = [Path(folder, name).resolve() for name in names] if folder else []
    for jar in jars:
        if not jar.is_file():
            raise UsageError(f"FX605 deploy jar {jar} does not exist")
    return jars
