"""`flinkx test`: unit tests for tasks, with fixture rows, run on the embedded Flink.

fixtures.py reads the test files (shape, positions), bind.py checks them against the tasks and
tables (every mistake an FX5xx line before anything runs), values.py converts YAML scalars by
Flink column types, run.py executes each case on the real Flink (one JVM, the stand-in connector
serving rows and collecting changelogs), compare.py computes final tables and diffs, report.py
prints them, suite.py ties a run together.
"""
