"""Reading YAML with positions (ruamel.yaml round-trip nodes keep line/col), safely.

Workspace YAML is untrusted input. Between ruamel's composer (text -> node
graph) and its constructor (node graph -> Python objects) the graph is
checked, so nothing harmful is ever built:
- size: node count, nesting depth and alias count are counted while
  composing, and the size the document would have with every alias
  expanded is computed on the graph (shared nodes counted once each time
  they are used, without building anything): a billion-laughs file is
  refused in milliseconds;
- tags: only the plain YAML types (text, numbers, booleans, null, lists,
  mappings, `<<` merges) are allowed, so `!!python/...` and `!custom` are
  refused, never constructed; an unquoted date stays the text written;
- keys: every key is text, given once (a duplicate names both lines);
- integers: at most 1,000 digits, hexadecimal ones too (Python refuses to
  print one beyond 4,300 decimal digits).
Every problem is one FX finding at its line and column; ruamel's own errors
are rewritten in plain words (`yaml_messages`).
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap
from ruamel.yaml.comments import CommentedSeq
from ruamel.yaml.composer import Composer
from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.docinfo import DocInfo
from ruamel.yaml.docinfo import version
from ruamel.yaml.error import MarkedYAMLError
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.nodes import MappingNode
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver
from ruamel.yaml.tag import Tag

from flinkx_build import limits
from flinkx_build.errors import Diagnostic
from flinkx_build.load.libyaml import CParser as _CParser
from flinkx_build.load.read_once import read_bytes
from flinkx_build.load.yaml_cache import NO_CACHE
from flinkx_build.load.yaml_cache import YamlCache
from flinkx_build.load.yaml_cache import decode
from flinkx_build.load.yaml_cache import encode
from flinkx_build.load.yaml_messages import plain_yaml_error
from flinkx_build.workspace_model import Loc

__all__ = ["NO_CACHE", "YamlCache", "load_yaml", "read_text", "mapping_loc", "key_loc", "value_loc", "item_loc"]

_STD = "tag:yaml.org,2002:"
_ALLOWED_TAGS = {_STD + t for t in ("str", "int", "float", "bool", "null", "map", "seq", "merge")}
_TIMESTAMP = _STD + "timestamp"


class _Refused(Exception):
    """A checked limit or rule, raised at a YAML mark."""

    def __init__(self, code: str, message: str, mark: Any, hint: str = "") -> None:
        super().__init__(message)
        self.code, self.message, self.mark, self.hint = code, message, mark, hint


class _CountingComposer(Composer):
    """ruamel's composer, stopping as soon as the document grows past a limit."""

    nodes = 0
    aliases = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            self.aliases += 1
            if self.aliases > limits.MAX_YAML_ALIASES:
                raise _Refused("FX183", f"more than {limits.MAX_YAML_ALIASES:,} aliases (*name)", event.start_mark, "write the values out")
            return super().compose_node(parent, index)
        self.nodes += 1
        if self.nodes > limits.MAX_YAML_NODES:
            raise _Refused("FX184", f"more than {limits.MAX_YAML_NODES:,} YAML values in one file", event.start_mark, "split the file")
        if self.depth >= limits.MAX_YAML_DEPTH:
            raise _Refused("FX182", f"YAML is nested more than {limits.MAX_YAML_DEPTH} levels deep", event.start_mark)
        return super().compose_node(parent, index)


def _tag(node: Any) -> str:
    tag = node.tag
    return str(getattr(tag, "value", tag) or "")


def _text_timestamp(node: Any) -> str:
    """The node's tag, an unquoted date turned into the text written (2024-01-01T10:00:00Z stays that text)."""
    if _tag(node) == _TIMESTAMP:
        node.tag = Tag(suffix=_STD + "str")
    return _tag(node)


def _scalar_kind(node: ScalarNode) -> str:
    return {_STD + "str": "text", _STD + "int": "a number", _STD + "float": "a number", _STD + "bool": "a boolean", _STD + "null": "empty"}.get(_tag(node), "a value")


class _GraphCheck:
    """One walk over the composed graph: tags, keys, integers and the expanded size."""

    def __init__(self) -> None:
        self.sizes: dict[int, tuple[int, int, int]] = {}  # id(node) -> (nodes, chars, depth) expanded
        self.active: set[int] = set()

    def size(self, node: Any) -> tuple[int, int, int]:
        ident = id(node)
        if ident in self.sizes:
            return self.sizes[ident]
        if ident in self.active:
            raise _Refused("FX183", "an alias refers to the value that contains it", node.start_mark)
        self.active.add(ident)
        result = self._measure(node)
        self.active.discard(ident)
        nodes, chars, depth = result
        if nodes > limits.MAX_YAML_EXPANDED_NODES or chars > limits.MAX_YAML_EXPANDED_CHARS or depth > limits.MAX_YAML_DEPTH:
            raise _Refused("FX183", "aliases (*name) expand this value far beyond the file's size", node.start_mark, "write the values out instead of repeating aliases")
        self.sizes[ident] = result
        return result

    def _measure(self, node: Any) -> tuple[int, int, int]:
        tag = _text_timestamp(node)
        if tag not in _ALLOWED_TAGS:
            raise _Refused("FX101", f"YAML tag '{tag.replace(_STD, '!!')}' is not allowed", node.start_mark, "flinkx YAML holds plain text, numbers, lists and mappings")
        if isinstance(node, ScalarNode):
            # alphanumerics, not digits: 0xfff... has few decimal digits but a value Python will not print
            if tag == _STD + "int" and sum(ch.isalnum() for ch in node.value) > limits.MAX_INTEGER_DIGITS:
                raise _Refused("FX185", f"a number with more than {limits.MAX_INTEGER_DIGITS:,} digits", node.start_mark, "quote it if it is text")
            return 1, len(node.value), 1
        children = [v for pair in node.value for v in pair] if isinstance(node, MappingNode) else list(node.value)
        if isinstance(node, MappingNode):
            self._check_keys(node)
        nodes, chars, depth = 1, 0, 0
        for child in children:
            n, c, d = self.size(child)
            nodes, chars, depth = nodes + n, chars + c, max(depth, d)
        return nodes, chars, depth + 1

    def _check_keys(self, node: MappingNode) -> None:
        seen: dict[str, Any] = {}
        for key, _ in node.value:
            if _tag(key) == _STD + "merge":
                continue
            if not isinstance(key, ScalarNode):
                raise _Refused("FX101", "a list or mapping cannot be a key", key.start_mark, "keys are names")
            if _text_timestamp(key) != _STD + "str":
                what = _scalar_kind(key)
                raise _Refused("FX101", f"key {key.value!r} is {what}, not a name", key.start_mark, f"quote it: '{key.value}'")
            if key.value in seen:
                first = seen[key.value].line + 1
                raise _Refused("FX101", f"key '{key.value}' is given twice: lines {first} and {key.start_mark.line + 1}", key.start_mark, "keep one of them")
            seen[key.value] = key.start_mark


def _parse(text: str) -> Any:
    """Compose, check, construct: the document, or `_Refused` / ruamel's errors.

    libyaml's scanner and parser (ruamel.yaml.clib) make the events when they are installed:
    ruamel's pure-Python scanner is most of the time a cold load of a large workspace spends
    in YAML, and the C scanner makes the same events several times faster. The
    composing (with its limits), the checks and the constructing are the same Python either
    way. A document that fails there, or declares a YAML version, is read again by ruamel
    alone, so every error and every `%YAML 1.1` document reads exactly as before.
    """
    if _CParser is not None and not text.startswith("%") and "\n%" not in text:
        loader = _LibyamlLoader(text)
        try:
            return _compose_check_construct(loader.composer, loader.constructor)
        except Exception:  # noqa: BLE001 - said below in ruamel's words
            pass
        finally:
            loader.parser.dispose()
    yaml = YAML(typ="rt")
    yaml.Composer = _CountingComposer
    yaml.doc_infos.append(DocInfo(requested_version=version(yaml.version)))  # as YAML.load does
    constructor, parser = yaml.get_constructor_parser(text)
    try:
        return _compose_check_construct(constructor.composer, constructor)
    finally:
        parser.dispose()


def _compose_check_construct(composer: Composer, constructor: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a reused anchor is legal YAML; never print ruamel's warnings
        node = composer.get_single_node()
        if node is None:
            return None
        _GraphCheck().size(node)
        return constructor.construct_document(node)


class _LibyamlLoader:
    """What ruamel's composer and round-trip constructor read of a loader, over libyaml's events.

    ruamel's own C loader composes in C too, past `_CountingComposer`'s limits (and recursing
    in C on deep nesting): only the events are libyaml's here."""

    max_depth = 0  # (no limit of ruamel's: `_CountingComposer` has its own)
    comment_handling = None  # (libyaml keeps no comments; flinkx reads none)

    def __init__(self, text: str) -> None:
        self.parser = self._parser = _CParser(text)
        self.resolver = self._resolver = VersionedResolver(loadumper=self)
        self._composer = None
        self.composer = _CountingComposer(loader=self)
        self.constructor = RoundTripConstructor(loader=self)


def read_text(path: Path, shown: str, lone_cr_ok: bool, raw: bytes | None = None) -> tuple[str | None, bytes, Diagnostic | None]:
    """A workspace file's text within the limits (FX180 size, FX188 encoding, FX189 control characters).

    `raw`: the file's bytes, when the caller has read them already (the load memo keys on them).
    """
    if raw is not None:
        text, problem = limits.decode_text(raw, shown, lone_cr_ok)
        return text, raw, problem
    try:
        # never blocking, only a regular file, and refused before it is read into memory when too big:
        # a FIFO named on the command line hung `lint FILE` here
        raw = read_bytes(path, limits.MAX_FILE_BYTES)
        if raw is None:
            size = path.stat().st_size
            return None, b"", Diagnostic(shown, 1, 1, "FX180", f"file is {size:,} bytes, over the limit of {limits.MAX_FILE_BYTES:,}", "split it into smaller files")
    except OSError as exc:
        return None, b"", Diagnostic(shown, 1, 1, "FX101", f"cannot read file: {exc.strerror or exc}")
    text, problem = limits.decode_text(raw, shown, lone_cr_ok)
    return text, raw, problem


def load_yaml(path: Path, display: str, cache: YamlCache = NO_CACHE, raw: bytes | None = None) -> tuple[Any, list[Diagnostic]]:
    """The document (None if unreadable or refused) and any findings about it (`raw`: as in `read_text`)."""
    text, raw, problem = read_text(path, display, lone_cr_ok=True, raw=raw)
    if text is None:
        return None, [problem] if problem else []
    cached = cache.get(raw)
    if cached is not None:
        return cached, []
    try:
        data = _parse(text)
    except _Refused as exc:
        line, col = (exc.mark.line + 1, exc.mark.column + 1) if exc.mark is not None else (1, 1)
        return None, [Diagnostic(display, line, col, exc.code, exc.message, exc.hint)]
    except MarkedYAMLError as exc:
        said = plain_yaml_error(exc)
        return None, [Diagnostic(display, said.line, said.col, "FX101", said.message, said.hint)]
    except Exception as exc:  # unmarked (ruamel raises a few plain errors): one line at the top
        message = " ".join(str(exc).split()) or type(exc).__name__
        return None, [Diagnostic(display, 1, 1, "FX101", f"malformed YAML: {message[:200]}")]
    if data is None:
        return None, []
    # what every caller sees is what the cache would give back: one shape, cached or not
    data = decode(encode(data))
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
