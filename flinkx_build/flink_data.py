"""Data taken from Apache Flink itself and shipped with flinkx.

`data/flink_builtin_functions.txt` and `data/flink_reserved_words.json` are
written by `scripts/gen_flink_data.py` from the real Flink 1.20 planner.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

_SIMPLE_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def data_text(name: str) -> str:
    try:
        return resources.files("flinkx_build.data").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return ""


@lru_cache(maxsize=1)
def builtin_functions() -> frozenset[str]:
    """Upper-case names of Flink 1.20's built-in functions."""
    names = set()
    for line in data_text("flink_builtin_functions.txt").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(line.split()[0].upper())
    return frozenset(names)


@lru_cache(maxsize=1)
def reserved_words() -> dict[str, str]:
    """Upper-case word -> "error" (Flink rejects it unquoted) or "warning"."""
    text = data_text("flink_reserved_words.json")
    if not text:
        return {}
    return {k.upper(): v for k, v in json.loads(text).get("words", {}).items()}


def quote_identifier(name: str) -> str:
    """Backtick-quote a name when Flink could read it as something else."""
    # only words Flink's parser really rejects: `a` or `name` stay bare
    if _SIMPLE_IDENTIFIER.match(name) and reserved_words().get(name.upper()) != "error":
        return name
    return "`" + name.replace("`", "``") + "`"
