"""Content hashes: file hashes for the manifest, canonical hashes for semantics (the code version: `cache_version.py`)."""
from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any


def sha256(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def canonical_hash(obj: Any) -> str:
    """Hash of a JSON-able value, independent of key order."""
    return sha256(json.dumps(obj, sort_keys=True, default=str))


def installed_version(name: str) -> str:
    """An installed distribution's version, read from the name of its `.dist-info` folder (PEP 427)
    beside the package: importing importlib.metadata took 35 ms, a tenth of a warm build."""
    spec = importlib.util.find_spec(name)
    if spec is not None and spec.origin:
        found = list(Path(spec.origin).parent.parent.glob(f"{name}-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len(name) + 1 : -len(".dist-info")]
    from importlib import metadata  # an editable or unusual install: ask the slow way

    return metadata.version(name)
