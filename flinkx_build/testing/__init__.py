"""`flinkx test`: unit tests for tasks, with fixture rows, run on the target's own Flink (the planner driver).

fixtures.py reads the test files (shape, positions), bind.py checks them against the tasks and
tables (every mistake an FX5xx line before anything runs), values.py converts YAML scalars by
Flink column types, driver_run.py runs each case on the real Flink (a driver JVM, the stand-in connector
serving rows and collecting changelogs) with run.py's helpers, pool.py one driver per core, compare.py computes final tables and diffs, report.py
prints them, suite.py ties a run together.
"""
