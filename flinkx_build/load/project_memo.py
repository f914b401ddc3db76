"""A project's header (its `project.yaml`) through the load memo: an unchanged project is a lookup.

At 400 small projects, reading each `project.yaml` back from the YAML cache and
rebuilding its nodes was a tenth of the load of a build that changed one task.
The header is what `project.yaml` and the folder's name make (name, description,
variables, and the findings about them), so it is stored in the load memo
(`memo.py`) under a key over both, like a meta table's result, and checked like
one when read back: wrong types or a name the loader would refuse are a miss.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from flinkx_build.errors import Diagnostic
from flinkx_build.load import memo_codec
from flinkx_build.load.memo import LoadMemo
from flinkx_build.load.memo import salt
from flinkx_build.load.names import plain_name_problem

Header = tuple[str, str, dict[str, str]]  # name, description, variables; None: the project is not loaded


def header_key(raw: bytes, folder: str) -> str:
    digest = hashlib.sha256(f"{salt()}\0project\0{folder}\0{len(raw)}\0".encode())
    digest.update(raw)
    return digest.hexdigest()


def recall_header(memo: LoadMemo, key: str, shown: Callable[[], str]) -> tuple[bool, Header | None, list[Diagnostic]]:
    """(found, header, findings) stored for `key`; a bad entry is dropped and reads as not found. `shown()`:
    the path the findings are shown at (asked only when there are findings: a path per project costs)."""
    payload = memo.get(key)
    if payload is None:
        return False, None, []
    try:
        header = _header(payload[0])
        found = [memo_codec.decode(d, shown(), Diagnostic) for d in payload[1]] if payload[1] else []
    except Exception:  # any shape problem: read the file as if there were no memo
        memo.forget(key)
        return False, None, []
    return True, header, found


def remember_header(memo: LoadMemo, key: str, shown: str, header: Header | None, found: list[Diagnostic]) -> None:
    """Store a header, unless a finding names another path than `shown` (the folder's, for one)."""
    if not memo.enabled:
        return
    try:
        findings = [memo_codec.encode(d, shown, Diagnostic) for d in found]
    except (memo_codec.NotStorable, TypeError):
        return
    memo.put(key, [None if header is None else list(header), findings])


def _header(data: Any) -> Header | None:
    if data is None:
        return None
    name, description, variables = data
    if type(name) is not str or plain_name_problem(name) is not None or type(description) is not str:
        raise memo_codec.BadEntry("a project header")
    if type(variables) is not dict or any(type(k) is not str or type(v) is not str for k, v in variables.items()):
        raise memo_codec.BadEntry("project variables")
    return name, description, dict(variables)
