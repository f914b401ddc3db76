"""Loaded meta tables and functions as JSON data, and back, checked against the model's types.

The load memo (`flinkx_build.load.memo`) stores what `load_table` and
`load_function` returned. Its entries come from the cache folder, where a
pull request can plant files, so decoding is driven by the model's own type
hints: every value must have exactly the type its field declares (a `str`
is a str, a `Loc | None` is null or [line, col], a `list[Column]` a list of
columns), and only the five classes below can be built. Anything else
raises `BadEntry`, which the memo treats as a miss.

Positions are stored as line/col only (one number each): the path a user sees depends on the
current folder (and `flinkx impact` loads a revision from a temporary
folder), so decoding puts the caller's `shown` back. A result holding any
other path cannot be stored (`NotStorable`) and is loaded normally.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from functools import cache
from typing import Any
from typing import Callable

from flinkx_build.errors import Diagnostic
from flinkx_build.workspace_model import Column
from flinkx_build.workspace_model import Function
from flinkx_build.workspace_model import Loc
from flinkx_build.workspace_model import MetaTable

CLASSES: tuple[type, ...] = (Loc, Column, MetaTable, Function, Diagnostic)
Codec = Callable[[Any, str], Any]  # (value, shown) -> value


def _new(cls: type) -> Any:
    return object.__new__(cls)


class BadEntry(ValueError):
    """Stored data that does not have the model's shape."""


class NotStorable(ValueError):
    """A result that cannot be stored without losing something (a path other than `shown`)."""


def model_fingerprint() -> str:
    """Field names and types of every stored class: a changed model makes old entries misses."""
    return repr([(cls.__name__, [(f.name, str(f.type)) for f in dataclasses.fields(cls)]) for cls in CLASSES])


def encode(value: Any, shown: str, kind: type) -> Any:
    return _codec(kind, True)(value, shown)


def decode(data: Any, shown: str, kind: type) -> Any:
    return _codec(kind, False)(data, shown)


def _scalar(kind: type, encoding: bool) -> Codec:
    def code(value: Any, shown: str) -> Any:
        if type(value) is not kind:  # bool is not an int here, nor an int a bool
            raise (NotStorable if encoding else BadEntry)(f"expected {kind.__name__}, got {type(value).__name__}")
        return value
    return code


_COL = 1 << 32  # a position is stored as one number, line * 2**32 + col (no list per position to parse;
# the generated decoder below splits it with `>> 32` and `& 0xFFFFFFFF`)


def _loc(encoding: bool) -> Codec:
    def enc(value: Any, shown: str) -> Any:
        if type(value) is not Loc or value.path != shown or type(value.line) is not int or type(value.col) is not int:
            raise NotStorable("a position in another file")
        if not (0 <= value.line < _COL and 0 <= value.col < _COL):
            raise NotStorable("a position beyond what one number holds")
        return value.line * _COL + value.col

    def dec(data: Any, shown: str) -> Any:
        if type(data) is not int or data < 0:
            raise BadEntry("a position is line * 2**32 + col")
        loc = _new(Loc)  # as Loc(shown, line, col), without the frozen class's slower __init__
        fields = loc.__dict__
        fields["path"], fields["line"], fields["col"] = shown, data >> 32, data & (_COL - 1)
        return loc
    return enc if encoding else dec


def _optional(inner: Codec) -> Codec:
    return lambda value, shown: None if value is None else inner(value, shown)


def _list(item: Any, inner: Codec, encoding: bool) -> Codec:
    def code(value: Any, shown: str) -> Any:
        if type(value) is not list:
            raise (NotStorable if encoding else BadEntry)("expected a list")
        if item is str:  # the common case, checked without a call per item
            if not set(map(type, value)) <= {str}:
                raise (NotStorable if encoding else BadEntry)("expected a list of text")
            return list(value)
        return [inner(x, shown) for x in value]
    return code


def _dict(item: Any, inner: Codec, encoding: bool) -> Codec:
    def code(value: Any, shown: str) -> Any:
        if type(value) is not dict or not set(map(type, value)) <= {str}:
            raise (NotStorable if encoding else BadEntry)("expected a mapping with text keys")
        if item is str:
            if not set(map(type, value.values())) <= {str}:
                raise (NotStorable if encoding else BadEntry)("expected a mapping of text")
            return dict(value)  # JSON keeps the order: options print in it
        return {k: inner(v, shown) for k, v in value.items()}
    return code


def _dataclass(cls: type, encoding: bool) -> Codec:
    names = [f.name for f in dataclasses.fields(cls)]
    hints = typing.get_type_hints(cls)
    # a Diagnostic's path is the file's own: stored as null, given back as `shown`
    codecs = [_shown(encoding) if cls is Diagnostic and name == "path" else _codec(hints[name], encoding) for name in names]
    pairs = list(zip(names, codecs))

    def enc(value: Any, shown: str) -> Any:
        if type(value) is not cls:
            raise NotStorable(f"expected a {cls.__name__}")
        return [code(getattr(value, name), shown) for name, code in pairs]
    return enc if encoding else _generated_decoder(cls, names, [hints[n] for n in names], codecs)


def _generated_decoder(cls: type, names: list[str], kinds: list[Any], codecs: list[Codec]) -> Codec:
    """A decoder written out for `cls` (as `dataclasses` writes __init__): one check per field, no loop.

    A loop over the fields with a call per value took most of a warm load (a table has about
    fifty values); the generated function does the same checks inline. Its text is made from the
    class's field names only, never from stored data.
    """
    n = len(names)
    scope: dict[str, Any] = {"cls": cls, "Loc": Loc, "BadEntry": BadEntry, "new": object.__new__}
    body = [f"    if type(data) is not list or len(data) != {n}:",
            f"        raise BadEntry('a {cls.__name__} has {n} fields')",
            f"    {', '.join(f'v{i}' for i in range(n))}, = data"]
    values: list[tuple[str, str]] = []  # (field, the expression of its value)
    for i, (name, kind, code) in enumerate(zip(names, kinds, codecs)):
        if cls is Diagnostic and name == "path":
            body += [f"    if v{i} is not None:", "        raise BadEntry('a finding is about its own file')"]
            values.append((name, "shown"))
        elif kind in (str, int, bool):
            body += [f"    if type(v{i}) is not {kind.__name__}:", f"        raise BadEntry('{cls.__name__}.{name} must be {kind.__name__}')"]
            values.append((name, f"v{i}"))
        elif kind is Loc:  # inline: a table holds dozens of positions
            body += [f"    if type(v{i}) is not int or v{i} < 0:", "        raise BadEntry('a position is line * 2**32 + col')",
                     f"    p{i} = new(Loc)", f"    d = p{i}.__dict__",
                     f"    d['path'] = shown; d['line'] = v{i} >> 32; d['col'] = v{i} & 0xFFFFFFFF"]
            values.append((name, f"p{i}"))
        else:
            scope[f"c{i}"] = code
            values.append((name, f"c{i}(v{i}, shown)"))
    if cls is Diagnostic:  # few, and a planted entry must not skip masking and escaping (__post_init__)
        body += [f"    return cls({', '.join(f'{name}={value}' for name, value in values)})"]
    else:  # the other classes check nothing in __init__: set the fields as stored (item by item:
        # a third faster than `__dict__.update(**fields)`, at 56,000 objects a load)
        body += ["    obj = new(cls)", "    d = obj.__dict__"]
        body += [f"    d['{name}'] = {value}" for name, value in values]
        body += ["    return obj"]
    exec("def dec(data, shown):\n" + "\n".join(body), scope)  # noqa: S102 - text from field names only
    return scope["dec"]


def _shown(encoding: bool) -> Codec:
    def enc(value: Any, shown: str) -> Any:
        if value != shown:
            raise NotStorable("a finding about another file")
        return None

    def dec(data: Any, shown: str) -> Any:
        if data is not None:
            raise BadEntry("a finding's path is stored as null")
        return shown
    return enc if encoding else dec


@cache
def _codec(kind: Any, encoding: bool) -> Codec:
    """The encoder or decoder for a type hint of the model (built once per hint)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind is Loc:
        return _loc(encoding)
    if kind in CLASSES:
        return _dataclass(kind, encoding)
    if kind in (str, int, bool):
        return _scalar(kind, encoding)
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        return _optional(_codec(next(a for a in args if a is not type(None)), encoding))
    if origin is list and len(args) == 1:
        return _list(args[0], _codec(args[0], encoding), encoding)
    if origin is dict and len(args) == 2 and args[0] is str:
        return _dict(args[1], _codec(args[1], encoding), encoding)
    raise TypeError(f"the load memo cannot store a {kind!r}: teach flinkx_build/load/memo_codec.py")
