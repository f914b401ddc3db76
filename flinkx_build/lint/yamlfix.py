"""The FX106 fix: quote a non-string YAML `with:` value, every other byte unchanged.

A YAML round trip would re-indent and re-quote the whole file, so the fix
edits the text instead: ruamel's composer gives each scalar's exact span,
and only the spans FX106 points at are replaced. The quoted text is what
the build already uses for the value (`3306` -> "3306", `1.50` -> "1.5",
`0x10` -> "16"), so the compiled SQL is the same before and after the fix.
"""
from __future__ import annotations

import json
from typing import Any
from typing import Iterator

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.nodes import MappingNode
from ruamel.yaml.nodes import Node
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.nodes import SequenceNode

from flinkx_build.load.tables import _text as option_text  # how the loader turns a YAML value into option text

Position = tuple[int, int]  # 1-based line and column, as diagnostics carry them


def _scalars(node: Node | None) -> Iterator[ScalarNode]:
    if isinstance(node, MappingNode):
        for key, value in node.value:
            yield from _scalars(key)
            yield from _scalars(value)
    elif isinstance(node, SequenceNode):
        for item in node.value:
            yield from _scalars(item)
    elif isinstance(node, ScalarNode):
        yield node


def _values(data: Any, out: dict[Position, Any]) -> dict[Position, Any]:
    """Every mapping value by the position of its first character."""
    if isinstance(data, CommentedMap):
        for key, value in data.items():
            try:
                line, col = data.lc.value(key)
                out[(line + 1, col + 1)] = value
            except (KeyError, TypeError):
                pass
            _values(value, out)
    elif isinstance(data, CommentedSeq):
        for item in data:
            _values(item, out)
    return out


def quote_values(text: str, positions: set[Position]) -> tuple[str, set[Position]]:
    """`text` with the plain, one-line, non-string scalars at `positions` double-quoted,
    and the positions that were quoted (a value in another form is left alone)."""
    if not positions:
        return text, set()
    try:
        root = YAML(typ="rt").compose(text)
        values = _values(YAML(typ="rt").load(text), {})
    except YAMLError:
        return text, set()
    edits: list[tuple[int, int, str]] = []
    done: set[Position] = set()
    for scalar in _scalars(root):
        where = (scalar.start_mark.line + 1, scalar.start_mark.column + 1)
        if where not in positions or scalar.style is not None or where not in values:
            continue
        start, end = scalar.start_mark.index, scalar.end_mark.index
        value = values[where]
        if text[start:end] != scalar.value or value is None or isinstance(value, str):
            continue  # a tag, an anchor or a multi-line scalar: not a plain one-line value
        edits.append((start, end, json.dumps(option_text(value), ensure_ascii=False)))
        done.add(where)
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text, done
