"""Reading YAML with positions (ruamel.yaml round-trip nodes keep line/col)."""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

import ruamel.yaml
from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from flinkx_build.errors import Diagnostic
from flinkx_build.model import Loc

_yaml = YAML(typ="rt")


class YamlCache:
    """Parsed documents by content hash.

    ruamel's round-trip parser (which keeps the line numbers every message
    needs) costs about 2.5 ms a file: a 1,000-table workspace would spend
    seconds on every commit re-reading files that did not change. The cache
    lives in the workspace's (git-ignored) cache folder and holds only
    documents that parsed; the key covers the bytes and ruamel's version.
    """

    FORMAT = "1"

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory

    def _path(self, raw: bytes) -> Path | None:
        if self.directory is None:
            return None
        digest = hashlib.sha256(raw + f"\0{ruamel.yaml.__version__}\0{self.FORMAT}".encode()).hexdigest()
        return self.directory / digest[:2] / f"{digest}.pickle"

    def get(self, raw: bytes) -> Any:
        path = self._path(raw)
        if path is None:
            return None
        try:
            with open(path, "rb") as fh:
                return pickle.load(fh)
        except Exception:  # missing, truncated or from another version: parse again
            return None

    def put(self, raw: bytes, data: Any) -> None:
        path = self._path(raw)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "wb") as fh:
                pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except (OSError, pickle.PicklingError):
            pass  # a cache that cannot be written is only slower


NO_CACHE = YamlCache(None)


def load_yaml(path: Path, display: str, cache: YamlCache = NO_CACHE) -> tuple[Any, list[Diagnostic]]:
    """The document (None if unreadable) and any FX101 diagnostics."""
    try:
        raw = path.read_bytes()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Diagnostic(display, 1, 1, "FX101", f"cannot read file: {exc}")]
    cached = cache.get(raw)
    if cached is not None:
        return cached, []
    try:
        data = _yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        return None, [Diagnostic(display, line, col, "FX101", f"malformed YAML: {problem}")]
    except Exception as exc:  # ruamel raises a few non-marked errors too
        return None, [Diagnostic(display, 1, 1, "FX101", f"malformed YAML: {exc}")]
    if data is not None:
        cache.put(raw, data)
    return data, []


def mapping_loc(node: Any, display: str) -> Loc:
    if isinstance(node, (CommentedMap, CommentedSeq)) and node.lc.line is not None:
        return Loc(display, node.lc.line + 1, node.lc.col + 1)
    return Loc(display, 1, 1)


def key_loc(node: Any, key: str, display: str) -> Loc:
    """Position of `key:` in a mapping (the mapping itself if unknown)."""
    if isinstance(node, CommentedMap) and key in node:
        try:
            line, col = node.lc.key(key)
            return Loc(display, line + 1, col + 1)
        except (KeyError, TypeError):
            pass
    return mapping_loc(node, display)


def value_loc(node: Any, key: str, display: str) -> Loc:
    """Position of the value of `key` in a mapping."""
    if isinstance(node, CommentedMap) and key in node:
        try:
            line, col = node.lc.value(key)
            return Loc(display, line + 1, col + 1)
        except (KeyError, TypeError):
            pass
    return key_loc(node, key, display)


def item_loc(node: Any, index: int, display: str) -> Loc:
    if isinstance(node, CommentedSeq):
        try:
            line, col = node.lc.item(index)
            return Loc(display, line + 1, col + 1)
        except (KeyError, TypeError, IndexError):
            pass
    return mapping_loc(node, display)


def is_quoted_string(value: Any) -> bool:
    return isinstance(value, str)
