"""The column-level semantic model: scopes, bindings, Flink types and lineage (see `model`)."""
from flinkx_build.semantic.analyze import analyze  # noqa: F401
