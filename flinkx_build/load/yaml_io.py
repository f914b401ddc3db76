"""Reading YAML with positions (ruamel.yaml round-trip nodes keep line/col)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.error import MarkedYAMLError

from flinkx_build.errors import Diagnostic
from flinkx_build.model import Loc

_yaml = YAML(typ="rt")


def load_yaml(path: Path, display: str) -> tuple[Any, list[Diagnostic]]:
    """The document (None if unreadable) and any FX101 diagnostics."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return None, [Diagnostic(display, 1, 1, "FX101", f"cannot read file: {exc}")]
    try:
        data = _yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        return None, [Diagnostic(display, line, col, "FX101", f"malformed YAML: {problem}")]
    except Exception as exc:  # ruamel raises a few non-marked errors too
        return None, [Diagnostic(display, 1, 1, "FX101", f"malformed YAML: {exc}")]
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
