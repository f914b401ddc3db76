"""flinkx: build, lint, graph and validate Dataphin-style Flink SQL workspaces."""
__version__ = "0.1.0"
