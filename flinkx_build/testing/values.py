"""Fixture values and Flink column types.

A test writes values as YAML scalars; they are converted by the column's Flink type into a
typed Python value (str, int, Decimal, datetime, tuple for ROW/ARRAY, ...), which is what
comparisons use. The same conversion reads back what the collecting sink received, so an
expected "15.50" and Flink's DECIMAL 15.5 compare equal, and a timestamp written with a space
equals one that comes back in ISO form. `to_wire` gives the JSON the Java side reads
(java/src/flinkx/standin/FixtureValues.java).
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from decimal import InvalidOperation
from typing import Any

from flinkx_build.type_text import bracket_span
from flinkx_build.type_text import field_name
from flinkx_build.type_text import split_top
from flinkx_build.type_text import structure_problem


@dataclass(frozen=True)
class FlinkType:
    root: str  # STRING, INT, DECIMAL, TIMESTAMP, TIMESTAMP_LTZ, ROW, ARRAY, MAP, ...
    params: tuple[int, ...] = ()
    fields: tuple[tuple[str, "FlinkType"], ...] = ()  # ROW fields; ARRAY: (("", element),); MAP: key, value

    def __str__(self) -> str:
        if self.root == "ROW":
            return "ROW<" + ", ".join(f"{n} {t}" for n, t in self.fields) + ">"
        if self.fields:
            return f"{self.root}<{', '.join(str(t) for _, t in self.fields)}>"
        return self.root + (f"({', '.join(map(str, self.params))})" if self.params else "")


_SYNONYMS = {
    "VARCHAR": "STRING", "CHAR": "STRING", "STRING": "STRING", "CHARACTER": "STRING",
    "INTEGER": "INT", "INT": "INT", "BIGINT": "BIGINT", "SMALLINT": "SMALLINT", "TINYINT": "TINYINT",
    "DEC": "DECIMAL", "NUMERIC": "DECIMAL", "DECIMAL": "DECIMAL", "FLOAT": "FLOAT",
    "DOUBLE": "DOUBLE", "REAL": "FLOAT", "BOOLEAN": "BOOLEAN", "DATE": "DATE", "TIME": "TIME",
    "TIMESTAMP": "TIMESTAMP", "TIMESTAMP_LTZ": "TIMESTAMP_LTZ", "BYTES": "BYTES",
    "BINARY": "BYTES", "VARBINARY": "BYTES", "ROW": "ROW", "ARRAY": "ARRAY", "MAP": "MAP",
    "MULTISET": "MULTISET",
}
_INT_RANGE = {"TINYINT": 8, "SMALLINT": 16, "INT": 32, "BIGINT": 64}


def parse_type(text: str) -> FlinkType:
    """A Flink SQL type as written in a meta table; raises ValueError on what it cannot read.

    The brackets, quoted names and comments are read by `type_text` (the one reader of type
    strings); this reads only the words around them."""
    problem = structure_problem(text)
    if problem:
        raise ValueError(problem)
    return _read(text)


_COMPOSITE = ("ROW", "ARRAY", "MAP", "MULTISET")
_TRAILING = frozenset({"WITH", "WITHOUT", "LOCAL", "TIME", "ZONE", "NOT", "NULL"})


def _read(text: str) -> FlinkType:
    span = bracket_span(text)
    head, body, rest = (text, None, "") if span is None else (text[:span[0]], text[span[0] + 1:span[1]], text[span[1] + 1:])
    words = head.split()
    if not words:
        raise ValueError("type expected")
    word = words[0].upper()
    root = _SYNONYMS.get(word)
    if root is None:
        raise ValueError(f"unknown type {word}")
    # DOUBLE PRECISION, CHARACTER VARYING; then WITH [LOCAL] TIME ZONE, WITHOUT TIME ZONE, NOT NULL,
    # NULL; a ROW field's comment and anything else after the type is not part of it
    trailing = {w.upper() for w in words[1:] + rest.split()} & _TRAILING
    params: tuple[int, ...] = ()
    fields: tuple[tuple[str, FlinkType], ...] = ()
    if body is not None and root in _COMPOSITE:
        parts = [part for part in split_top(body).parts if part.strip()]
        if root == "ROW":
            fields = tuple((name, _read(type_text)) for name, type_text in map(field_name, parts))
        else:
            fields = tuple(("", _read(part)) for part in parts)
    elif body is not None:
        params = tuple(int(part) for part in (p.strip() for p in split_top(body).parts) if part.isdigit())
    if root == "TIMESTAMP" and "LOCAL" in trailing:
        root = "TIMESTAMP_LTZ"
    if root in ("STRING", "BYTES"):
        params = ()  # lengths are not checked: Flink pads or truncates on the way in
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ") and not params:
        params = (6,)
    return FlinkType(root, params, fields)


_EXAMPLES = {
    "TIMESTAMP": "'YYYY-MM-DD HH:MM:SS[.fff]'", "TIMESTAMP_LTZ": "'YYYY-MM-DD HH:MM:SS[.fff]' (UTC)",
    "DATE": "'YYYY-MM-DD'", "TIME": "'HH:MM:SS'", "DECIMAL": "a number in quotes, e.g. \"10.50\"",
}


def convert(raw: Any, flink_type: FlinkType) -> Any:
    """The typed value of a fixture scalar (or a value read back from a sink); ValueError says
    why it does not fit the type."""
    if raw is None:
        return None
    try:
        return _CONVERT[flink_type.root](raw, flink_type)
    except (ValueError, InvalidOperation, TypeError, OverflowError) as exc:
        detail = str(exc) if isinstance(exc, (_Misfit, TypeError)) else ""
        example = _EXAMPLES.get(flink_type.root)
        hint = f"; write {example}" if example and not detail else ""
        shown = (repr(raw) if isinstance(raw, (str, int, float, bool, Decimal))
                 else "a list" if isinstance(raw, (list, tuple)) else "a mapping" if isinstance(raw, dict)
                 else repr(str(raw)))
        raise _Misfit(f"{shown} is not a valid {flink_type}{': ' + detail if detail else ''}{hint}") from None


class _Misfit(ValueError):
    pass


def _string(raw: Any, _: FlinkType) -> str:
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, (dict, list)):
        raise TypeError("a string is expected")
    return str(raw)


def _integer(raw: Any, t: FlinkType) -> int:
    if isinstance(raw, bool) or isinstance(raw, float) or isinstance(raw, (dict, list)):
        raise TypeError("an integer is expected")
    value = int(str(raw).strip())
    bits = _INT_RANGE[t.root]
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        raise _Misfit(f"out of range for {t.root}")
    return value


def _float(raw: Any, _: FlinkType) -> float:
    if isinstance(raw, (bool, dict, list)):
        raise TypeError("a number is expected")
    # 12 significant digits: sums of doubles differ in the last bits between runs and machines
    return float(f"{float(raw):.12g}")


def _decimal(raw: Any, t: FlinkType) -> Decimal:
    if isinstance(raw, (bool, dict, list)):
        raise TypeError("a number is expected")
    value = Decimal(str(raw).strip())
    if not value.is_finite():
        raise ValueError("not finite")
    precision = t.params[0] if t.params else 10
    scale = t.params[1] if len(t.params) > 1 else 0
    step = Decimal(1).scaleb(-scale)
    if value != value.quantize(step):
        raise _Misfit(f"more than {scale} decimal places")
    value = value.quantize(step)
    if abs(value) >= Decimal(10) ** (precision - scale):
        raise _Misfit(f"more than {precision - scale} digits before the point")
    return value


def _boolean(raw: Any, _: FlinkType) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "false"):
        return text == "true"
    raise ValueError("true or false expected")


def _timestamp(raw: Any, t: FlinkType) -> dt.datetime:
    if isinstance(raw, dt.datetime):
        value = raw
    elif isinstance(raw, dt.date):
        value = dt.datetime(raw.year, raw.month, raw.day)
    elif isinstance(raw, str):
        value = dt.datetime.fromisoformat(raw.strip())
    else:
        raise TypeError("a timestamp string is expected")
    if value.tzinfo is not None:  # Flink's TIMESTAMP_LTZ comes back as an instant (...Z)
        value = value.astimezone(dt.timezone.utc).replace(tzinfo=None)
    precision = t.params[0] if t.params else 6
    if value.microsecond % (10 ** (6 - min(precision, 6))):
        raise _Misfit(f"more than {precision} fractional digits")
    return value


def _date(raw: Any, _: FlinkType) -> dt.date:
    if isinstance(raw, dt.datetime):
        raise TypeError("a date is expected")
    if isinstance(raw, dt.date):
        return raw
    return dt.date.fromisoformat(str(raw).strip())


def _time(raw: Any, _: FlinkType) -> dt.time:
    if isinstance(raw, int) and not isinstance(raw, bool):  # YAML 1.1 reads 10:00:05 as seconds
        raw = f"{raw // 3600:02d}:{raw // 60 % 60:02d}:{raw % 60:02d}"
    return dt.time.fromisoformat(str(raw).strip())


def _bytes(raw: Any, t: FlinkType) -> str:
    return _string(raw, t)


def _row(raw: Any, t: FlinkType) -> tuple:
    names = [n for n, _ in t.fields]
    if isinstance(raw, dict):
        lowered = {n.lower(): n for n in names}
        for key in raw:
            if str(key).lower() not in lowered:
                raise _Misfit(f"no field '{key}' (fields: {', '.join(names)})")
        given = {lowered[str(k).lower()]: v for k, v in raw.items()}
        return tuple(convert(given.get(n), ft) for n, ft in t.fields)
    if isinstance(raw, (list, tuple)) and len(raw) == len(t.fields):
        return tuple(convert(v, ft) for v, (_, ft) in zip(raw, t.fields))
    raise TypeError("a mapping of field: value is expected")


def _array(raw: Any, t: FlinkType) -> tuple:
    if not isinstance(raw, (list, tuple)):
        raise TypeError("a list is expected")
    element = t.fields[0][1]
    return tuple(convert(v, element) for v in raw)


def _map(raw: Any, t: FlinkType) -> tuple:
    if t.root == "MULTISET":
        key_type, value_type = t.fields[0][1], FlinkType("INT")
    else:
        key_type, value_type = t.fields[0][1], t.fields[1][1]
    if isinstance(raw, dict):
        pairs = list(raw.items())
    elif isinstance(raw, (list, tuple)) and all(isinstance(p, (list, tuple)) and len(p) == 2 for p in raw):
        pairs = [tuple(p) for p in raw]
    else:
        raise TypeError("a mapping is expected")
    return tuple(sorted(((convert(k, key_type), convert(v, value_type)) for k, v in pairs), key=repr))


_CONVERT = {
    "STRING": _string, "BYTES": _bytes, "BOOLEAN": _boolean, "TINYINT": _integer,
    "SMALLINT": _integer, "INT": _integer, "BIGINT": _integer, "FLOAT": _float, "DOUBLE": _float,
    "DECIMAL": _decimal, "DATE": _date, "TIME": _time, "TIMESTAMP": _timestamp,
    "TIMESTAMP_LTZ": _timestamp, "ROW": _row, "ARRAY": _array, "MAP": _map, "MULTISET": _map,
}


def to_wire(value: Any, flink_type: FlinkType) -> Any:
    """A typed value in the JSON form FixtureValues.java reads."""
    if value is None:
        return None
    root = flink_type.root
    if root == "DECIMAL":
        return format(value, "f")
    if root == "TIMESTAMP_LTZ":
        return value.isoformat() + "Z"
    if root in ("TIMESTAMP", "DATE", "TIME"):
        return value.isoformat()
    if root == "ROW":
        return [to_wire(v, ft) for v, (_, ft) in zip(value, flink_type.fields)]
    if root == "ARRAY":
        return [to_wire(v, flink_type.fields[0][1]) for v in value]
    if root in ("MAP", "MULTISET"):
        key_type = flink_type.fields[0][1]
        value_type = FlinkType("INT") if root == "MULTISET" else flink_type.fields[1][1]
        return [[to_wire(k, key_type), to_wire(v, value_type)] for k, v in value]
    return value


def argument_text(raw: Any) -> str | None:
    """A function argument as the stand-in function compares it (FixtureValues.argumentText):
    its text, timestamps as 'YYYY-MM-DD HH:MM:SS[.f]' without trailing zeros."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, dt.datetime):
        time = raw.time().isoformat()
        return f"{raw.date().isoformat()} {time.rstrip('0') if '.' in time else time}"
    if isinstance(raw, dt.date):
        return raw.isoformat()
    return str(raw)


def show(value: Any) -> str:
    """A value as a test author writes it (for diffs)."""
    if value is None:
        return "null"
    if isinstance(value, dt.datetime):
        text = value.isoformat(sep=" ")
        return text[:-3] if value.microsecond and text.endswith("000") else text
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    if isinstance(value, Decimal):
        return f'"{format(value, "f")}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if isinstance(value, str):
        plain = re.fullmatch(r"[A-Za-z_][\w .:/@-]*", value) and value.strip() == value
        return value if plain and value.lower() not in ("null", "true", "false") else repr(value)
    return str(value)
