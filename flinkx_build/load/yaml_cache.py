"""The YAML parse cache: JSON data with positions, checked before it is used.

ruamel's round-trip parser (which keeps the line numbers every message
needs) costs about 2.5 ms a file, so parsed documents are kept in the
workspace's cache folder, keyed by the file's bytes. An entry holds only
mappings, lists, text, numbers and line/col data (`encode`/`decode`), and is
checked like every cache entry (`flinkx_build.cache_entries`): format,
version, key and MAC, or it is ignored and rebuilt.
"""
from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

import ruamel.yaml
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.scalarbool import ScalarBoolean

from flinkx_build.incremental.facts import PARSED_YAML
from flinkx_build.incremental.store import FactStore
from flinkx_build.load.libyaml import READER

FACT = PARSED_YAML  # format version 1 was pickle: never read again
FORMAT, VERSION = FACT.format, FACT.version


def encode(value: Any, to_store: bool = False) -> Any:
    """A parsed document as JSON-able data: {"map": [[key, value, pos]], "at": pos} / {"seq": ...}.

    `to_store`: for the cache file, whose JSON writes a float that is not finite (`.nan`, `.inf`)
    as null (json_codec.py): such a document raises ValueError and is not stored."""
    if isinstance(value, CommentedMap):
        data = value.lc.data or {}
        return {"map": [[str(k), encode(v, to_store), data.get(k)] for k, v in value.items()], "at": [value.lc.line, value.lc.col]}
    if isinstance(value, CommentedSeq):
        data = value.lc.data or {}
        return {"seq": [[encode(v, to_store), data.get(i)] for i, v in enumerate(value)], "at": [value.lc.line, value.lc.col]}
    if isinstance(value, (dict, list, tuple)):  # not produced by the loader's checks; keep the shape anyway
        raise TypeError(f"cannot cache a {type(value).__name__}")
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):  # ruamel's ScalarInt and ScalarBoolean are ints
        return bool(value) if isinstance(value, ScalarBoolean) else int(value)
    if isinstance(value, float):
        if to_store and not math.isfinite(value):
            raise ValueError("cannot cache a float that is not finite")
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


class YamlCache:
    """Parsed documents by content hash (entries checked by `flinkx_build.cache_entries`)."""

    def __init__(self, cache_root: Path | None) -> None:
        # reads and writes stay inside this folder even if a subfolder is a planted symlink
        self.store = FactStore(cache_root)

    @property
    def directory(self) -> Path | None:
        return self.store.folder(FACT)

    @classmethod
    def under(cls, cache_root: Path | None) -> "YamlCache":
        """The YAML cache of a workspace's cache folder (`Workspace.cache_root`; None: off)."""
        return cls(cache_root)

    def key(self, raw: bytes) -> str:
        return hashlib.sha256(raw + f"\0{ruamel.yaml.__version__}\0{READER}\0{FORMAT}{VERSION}".encode()).hexdigest()

    def get(self, raw: bytes) -> Any:
        key = self.key(raw)
        data = self.store.get(FACT, key)
        if data is None:
            return None
        try:
            return decode(data)
        except Exception:  # well-formed JSON of the wrong shape: parse again
            return None

    def put(self, raw: bytes, data: Any) -> None:
        key = self.key(raw)
        try:
            encoded = encode(data, to_store=True)
        except (TypeError, ValueError):
            return
        self.store.put(FACT, key, encoded)


NO_CACHE = YamlCache(None)
