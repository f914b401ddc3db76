"""The target's own planner: a small Java driver on that Flink version's jars (see session.py)."""

LINT_CODE = "FX301"  # a planner's error reported by lint (lint/planner_pass.py); FX300 is validate's
STOPPED_CODE = "FX306"  # the planner did not finish a task (its budget, or the driver stopped): an error, never "clean"
