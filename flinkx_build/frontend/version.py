"""The front-end's version: part of every parse-cache key.

Its own module, so code that only reads cached parses (a build with nothing
to parse, impact) can compute cache keys without importing sqlfluff.
"""
from __future__ import annotations

import hashlib
from pathlib import Path


def _frontend_version() -> str:
    """Changes whenever the grammar or the extraction code changes: the parse cache key.

    Hashing the front-end's own sources means nobody has to remember to bump
    a number when the dialect learns a construct.
    """
    folder = Path(__file__).parent
    digest = hashlib.sha256()
    for name in ("dialect.py", "extract.py", "hints.py", "splitter.py", "statements.py", "parse.py",
                 "positions.py", "query_ir.py", "query.py", "expressions.py", "dialect_flink120.py", "reserved_stop.py",
                 "code_loading.py", "dialect_real_sql.py", "explained.py", "alter_table.py"):
        digest.update((folder / name).read_bytes())
    # what the parse reads from outside the front-end: `${var}` rendering, code_loading's safe catalog types
    for name in ("variables.py", "engine_settings.py"):
        digest.update((folder.parent / name).read_bytes())
    return digest.hexdigest()[:16]


FRONTEND_VERSION = _frontend_version()
