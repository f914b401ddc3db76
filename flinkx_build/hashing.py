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
        site = Path(spec.origin).parents[name.count(".") + 1]  # `ruamel.yaml`: site/ruamel/yaml/__init__.py
        normalized = name.replace("-", "_").replace(".", "_")  # the folder's name as PEP 427 writes it
        found = list(site.glob(f"{name}-*.dist-info")) or list(site.glob(f"{normalized}-*.dist-info"))
        if len(found) == 1:
            return found[0].name[len(name) + 1 : -len(".dist-info")]
    from importlib import metadata  # an editable or unusual install: ask the slow way

    return metadata.version(name)
