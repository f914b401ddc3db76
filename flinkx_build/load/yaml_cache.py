"""The YAML parse cache: JSON data with positions, checked before it is used.

ruamel's round-trip parser (which keeps the line numbers every message
needs) costs about 2.5 ms a file, so parsed documents are kept in the
workspace's cache folder, keyed by the file's bytes. The cache folder sits
inside the workspace, where a pull request can plant files, so an entry is
data only (JSON: mappings, lists, text, numbers, positions; nothing that
names a type or runs code) and is used only when its format, version,
source key and content hash all check out. Anything else is ignored and
overwritten by a fresh parse. The hash catches corruption and stale
formats; it cannot tell a forged entry from a real one (anyone can compute
it), which is why docs/decisions.md says to run CI on a fresh cache.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import ruamel.yaml
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.scalarbool import ScalarBoolean

FORMAT = "flinkx-yaml-cache"
VERSION = 2  # 1 was pickle: never read again
MAX_ENTRY_BYTES = 32 * 1024 * 1024


def encode(value: Any) -> Any:
    """A parsed document as JSON-able data: {"map": [[key, value, pos]], "at": pos} / {"seq": ...}."""
    if isinstance(value, CommentedMap):
        data = value.lc.data or {}
        return {"map": [[str(k), encode(v), data.get(k)] for k, v in value.items()], "at": [value.lc.line, value.lc.col]}
    if isinstance(value, CommentedSeq):
        data = value.lc.data or {}
        return {"seq": [[encode(v), data.get(i)] for i, v in enumerate(value)], "at": [value.lc.line, value.lc.col]}
    if isinstance(value, (dict, list, tuple)):  # not produced by the loader's checks; keep the shape anyway
        raise TypeError(f"cannot cache a {type(value).__name__}")
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):  # ruamel's ScalarInt and ScalarBoolean are ints
        return bool(value) if isinstance(value, ScalarBoolean) else int(value)
    if isinstance(value, float):
        return float(value)
    return str(value)


def decode(value: Any) -> Any:
    """The inverse of `encode`: CommentedMap/CommentedSeq with their line/col data."""
    if isinstance(value, dict):
        if "map" in value:
            node: Any = CommentedMap()
            for key, item, pos in value["map"]:
                node[str(key)] = decode(item)
                if pos is not None:
                    node.lc.add_kv_line_col(str(key), [int(p) for p in pos])
        else:
            node = CommentedSeq()
            for i, (item, pos) in enumerate(value["seq"]):
                node.append(decode(item))
                if pos is not None:
                    node.lc.add_idx_line_col(i, [int(p) for p in pos])
        line, col = value["at"]
        node.lc.line, node.lc.col = line, col
        return node
    if isinstance(value, list):
        raise ValueError("a list outside a 'seq' entry")
    return value


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class YamlCache:
    """Parsed documents by content hash (see the module docstring for what is trusted)."""

    def __init__(self, directory: Path | None, boundary: Path | None = None) -> None:
        self.directory = directory
        # writes and reads stay inside this folder even if a subfolder is a planted symlink
        self.boundary = boundary or (directory.parent if directory is not None else None)

    def key(self, raw: bytes) -> str:
        return hashlib.sha256(raw + f"\0{ruamel.yaml.__version__}\0{FORMAT}{VERSION}".encode()).hexdigest()

    def _path(self, key: str) -> Path | None:
        if self.directory is None or self.boundary is None:
            return None
        folder = self.directory / key[:2]
        try:
            inside = folder.resolve().is_relative_to(self.boundary.resolve())
        except (OSError, RuntimeError):
            return None
        return folder / f"{key}.json" if inside else None

    def get(self, raw: bytes) -> Any:
        key = self.key(raw)
        path = self._path(key)
        if path is None:
            return None
        try:
            if not path.is_file() or path.stat().st_size > MAX_ENTRY_BYTES:
                return None
            entry = json.loads(path.read_bytes())
            if not isinstance(entry, dict) or entry.get("format") != FORMAT or entry.get("version") != VERSION:
                return None
            if entry.get("source") != key or entry.get("sha256") != _digest(entry.get("data")):
                return None
            return decode(entry["data"])
        except Exception:  # missing, truncated, foreign or forged in shape: parse again
            return None

    def put(self, raw: bytes, data: Any) -> None:
        key = self.key(raw)
        path = self._path(key)
        if path is None:
            return
        try:
            encoded = encode(data)
            entry = {"format": FORMAT, "version": VERSION, "source": key, "sha256": _digest(encoded), "data": encoded}
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(entry, fh, separators=(",", ":"))
            os.replace(tmp, path)
        except (OSError, TypeError, ValueError):
            pass  # a cache that cannot be written is only slower


NO_CACHE = YamlCache(None)
