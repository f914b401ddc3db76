"""Content hashes: file hashes for the manifest, canonical hashes for semantics."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def sha256(text: str | bytes) -> str:
    data = text.encode("utf-8") if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()


def canonical_hash(obj: Any) -> str:
    """Hash of a JSON-able value, independent of key order."""
    return sha256(json.dumps(obj, sort_keys=True, default=str))
