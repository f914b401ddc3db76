"""The target's own planner: a small Java driver on that Flink version's jars (see session.py)."""

LINT_CODE = "FX301"  # a planner's error reported by lint (lint/planner_pass.py); FX300 is validate's
STOPPED_CODE = "FX306"  # the planner did not finish a task (its budget, or the driver stopped): an error, never "clean"
JAVA_MISSING = "Java was not found: install a Java 17 JDK (java and javac) and put it on PATH or set JAVA_HOME"


class FlinkUnavailable(Exception):
    """The target's Flink cannot run here: no Java, its jars not here and not to be had, the driver did not
    compile or start. The message is one line that starts with its FX code (or is `JAVA_MISSING`)."""
