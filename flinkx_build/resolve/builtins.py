"""Kept for imports written before Flink's data moved to `flinkx_build/flink_data.py` (the facts layer,
which the front-end may import and resolve may not be imported by): new code imports flink_data."""
from __future__ import annotations

from flinkx_build.flink_data import builtin_functions
from flinkx_build.flink_data import data_text
from flinkx_build.flink_data import quote_identifier
from flinkx_build.flink_data import reserved_words

__all__ = ["builtin_functions", "data_text", "quote_identifier", "reserved_words"]
