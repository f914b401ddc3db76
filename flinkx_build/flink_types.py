"""Flink SQL types as the semantic model reasons about them.

`FlinkType` is a parsed type (`DECIMAL(12, 2)`, `TIMESTAMP(3)`, `STRING`);
`None` always means "not known", and every check treats an unknown type as
"could be right" so it never raises a false alarm. The typing rules follow
Flink 1.20 (Calcite with Flink's own DECIMAL rules); tests compare them with
the schema the real planner derives.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from flinkx_build import type_text
from flinkx_build.flink_data import facts_or_default

# type root -> family
_EXACT = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL")
_APPROX = ("FLOAT", "DOUBLE")
_CHARS = ("CHAR", "VARCHAR")
_BINARIES = ("BINARY", "VARBINARY")
_SYNONYMS = {
    "INTEGER": "INT", "STRING": "VARCHAR", "BYTES": "VARBINARY", "DEC": "DECIMAL", "NUMERIC": "DECIMAL",
    "REAL": "FLOAT", "DOUBLE PRECISION": "DOUBLE", "CHARACTER": "CHAR", "CHARACTER VARYING": "VARCHAR",
    "TIMESTAMP WITHOUT TIME ZONE": "TIMESTAMP", "TIMESTAMP WITH LOCAL TIME ZONE": "TIMESTAMP_LTZ",
    "TIME WITHOUT TIME ZONE": "TIME",
}
MAX_DECIMAL_PRECISION = 38
# a ROW field's `COMMENT '...'`; the look-behind starts a try only where a run of spaces starts
# (from every space of a long run, `\s+` would scan the rest of the run each time)
_FIELD_COMMENT = re.compile(r"(?<!\s)\s++COMMENT\s+'.*$", re.IGNORECASE | re.DOTALL)
_TYPE = re.compile(r"^\s*([A-Za-z_][A-Za-z_ ]*?)\s*(?:\(\s*([0-9 ,]*)\s*\))?\s*((?:NOT\s+)?NULL)?\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class FlinkType:
    root: str  # INT, BIGINT, DECIMAL, VARCHAR, TIMESTAMP, TIMESTAMP_LTZ, ROW, ... (synonyms folded)
    params: tuple[int, ...] = ()
    nullable: bool = True
    text: str = ""  # the written text, for types this module does not take apart (ROW<...>)
    time_attribute: str = ""  # rowtime | proctime

    @property
    def family(self) -> str:
        if self.root in _EXACT:
            return "exact"
        if self.root in _APPROX:
            return "approx"
        if self.root in _CHARS:
            return "char"
        if self.root in _BINARIES:
            return "binary"
        return self.root.lower()

    @property
    def numeric(self) -> bool:
        return self.family in ("exact", "approx")

    def precision_scale(self) -> tuple[int, int]:
        """DECIMAL precision and scale; integers as the DECIMAL that holds them."""
        if self.root == "DECIMAL":
            p = self.params[0] if self.params else 10
            s = self.params[1] if len(self.params) > 1 else 0
            return p, s
        return {"TINYINT": (3, 0), "SMALLINT": (5, 0), "INT": (10, 0), "BIGINT": (19, 0)}.get(self.root, (0, 0))

    def format(self) -> str:
        if self.text:
            body = self.text
        elif self.root == "VARCHAR" and self.params == (2147483647,):
            body = "STRING"
        elif self.params:
            body = f"{self.root}({', '.join(str(p) for p in self.params)})"
        else:
            body = self.root
        return body + ("" if self.nullable else " NOT NULL")

    def with_nullable(self, nullable: bool) -> "FlinkType":
        return FlinkType(self.root, self.params, nullable, self.text, self.time_attribute)


STRING = FlinkType("VARCHAR", (2147483647,))
BOOLEAN = FlinkType("BOOLEAN")
BIGINT = FlinkType("BIGINT")
INT = FlinkType("INT")
DOUBLE = FlinkType("DOUBLE")
NULL = FlinkType("NULL")


# `VARCHAR(n) CHARACTER SET \`UTF-16LE\``, as Flink's SHOW CREATE TABLE prints a string type: the
# character set changes nothing Flink checks (its strings are UTF-16 inside)
_CHARACTER_SET = re.compile(r" CHARACTER SET (?:`[^`]*`|\w+)", re.IGNORECASE)


def parse_type(text: str | None) -> FlinkType | None:
    """A type as written in YAML or DDL; None when it is not one this module reads."""
    if not text:
        return None
    compact = _CHARACTER_SET.sub("", " ".join(text.split()))
    upper = compact.upper()
    for complex_root in ("ROW", "ARRAY", "MAP", "MULTISET", "RAW"):
        if upper.startswith(complex_root + "<") or upper.startswith(complex_root + "("):
            nullable = not upper.endswith("NOT NULL")
            return FlinkType(complex_root, (), nullable, compact[: -len(" NOT NULL")] if not nullable else compact)
    m = _TYPE.match(compact)
    if not m:
        return None
    root = " ".join(m.group(1).upper().split())
    null_word = (m.group(3) or "").upper()
    nullable = not null_word.startswith("NOT")
    time_zone = re.match(r"^(TIMESTAMP|TIME)\s*\((\d+)\)\s*(WITH(?:OUT)? (?:LOCAL )?TIME ZONE)$", upper)
    if time_zone:
        root = f"{time_zone.group(1)} {time_zone.group(3)}"
        params: tuple[int, ...] = (int(time_zone.group(2)),)
    else:
        try:
            params = tuple(int(p) for p in (m.group(2) or "").replace(" ", "").split(",") if p)
        except ValueError:
            return None
    root = _SYNONYMS.get(root, root)
    if root == "VARCHAR" and m.group(1).upper().strip() == "STRING":
        params = (2147483647,)
    if root in ("TIMESTAMP", "TIMESTAMP_LTZ", "TIME") and not params:
        params = (6,) if root != "TIME" else (0,)
    known = {*_EXACT, *_APPROX, *_CHARS, *_BINARIES, "BOOLEAN", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ", "NULL"}
    if root not in known and not root.startswith("INTERVAL"):
        return None
    return FlinkType(root, params, nullable)


def literal_type(kind: str, text: str) -> FlinkType | None:
    """The type Flink gives a literal."""
    if kind == "integer":
        value = int(text)
        if -(2**31) <= value < 2**31:
            return FlinkType("INT", (), False)
        if -(2**63) <= value < 2**63:
            return FlinkType("BIGINT", (), False)
        return FlinkType("DECIMAL", (min(len(text.lstrip("-")), MAX_DECIMAL_PRECISION), 0), False)
    if kind == "exact":
        digits = text.lstrip("-+")
        whole, _, frac = digits.partition(".")
        scale = len(frac)
        precision = max(len(whole.lstrip("0")) + scale, scale, 1)
        return FlinkType("DECIMAL", (precision, scale), False)
    if kind == "approx":
        return FlinkType("DOUBLE", (), False)
    if kind == "string":
        body = text[1:-1].replace("''", "'") if len(text) >= 2 else ""
        return FlinkType("CHAR", (max(len(body), 1),), False)
    if kind == "boolean":
        return FlinkType("BOOLEAN", (), False)
    if kind == "null":
        return NULL
    if kind == "date":
        return FlinkType("DATE", (), False)
    if kind == "time":
        return FlinkType("TIME", (0,), False)
    if kind in ("timestamp", "timestamp_ltz"):
        m = re.search(r"\.(\d+)'", text)
        return FlinkType("TIMESTAMP" if kind == "timestamp" else "TIMESTAMP_LTZ", (max(len(m.group(1)) if m else 0, 0),), False)
    return None


_NUMERIC_ORDER = ("TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE")


def arithmetic(op: str, left: FlinkType | None, right: FlinkType | None) -> FlinkType | None:
    """`left op right` for + - * / % (Flink's DECIMAL rules)."""
    if left is None or right is None:
        return None
    nullable = left.nullable or right.nullable
    if left.root == "NULL" or right.root == "NULL":
        other = right if left.root == "NULL" else left
        return other.with_nullable(True) if other.numeric else None
    if not (left.numeric and right.numeric):
        if left.family in ("timestamp", "timestamp_ltz", "date", "time") and op in "+-" and right.root.startswith("INTERVAL"):
            return left.with_nullable(nullable)
        return None
    if "DOUBLE" in (left.root, right.root):
        return FlinkType("DOUBLE", (), nullable)
    if "FLOAT" in (left.root, right.root):
        return FlinkType("FLOAT", (), nullable)
    if "DECIMAL" in (left.root, right.root):
        return _decimal(op, left.precision_scale(), right.precision_scale(), nullable)
    wider = max(left.root, right.root, key=_NUMERIC_ORDER.index)
    return FlinkType(wider, (), nullable)


def _decimal(op: str, a: tuple[int, int], b: tuple[int, int], nullable: bool) -> FlinkType:
    (p1, s1), (p2, s2) = a, b
    if op in "+-":
        scale = max(s1, s2)
        precision = max(p1 - s1, p2 - s2) + scale + 1
    elif op == "*":
        precision, scale = p1 + p2 + 1, s1 + s2  # Flink (like Hive): one digit more than Calcite
    elif op == "/":
        scale = max(6, s1 + p2 + 1)
        precision = p1 - s1 + s2 + scale
    else:  # %
        scale = max(s1, s2)
        precision = min(p1 - s1, p2 - s2) + scale
    return FlinkType("DECIMAL", _adjust(precision, scale), nullable)


def _adjust(precision: int, scale: int) -> tuple[int, int]:
    """Flink's LogicalTypeMerging.adjustPrecisionScale: keep at least 6 digits of scale."""
    if precision <= MAX_DECIMAL_PRECISION:
        return precision, scale
    digits = precision - scale
    min_scale = min(scale, 6)
    scale = max(MAX_DECIMAL_PRECISION - digits, min_scale)
    return MAX_DECIMAL_PRECISION, scale


def common_type(types: list[FlinkType | None]) -> FlinkType | None:
    """The type of CASE / COALESCE / UNION branches: None unless Flink's choice is clear."""
    known = [t for t in types if t is not None and t.root != "NULL"]
    if len(known) != len([t for t in types if t is None or t.root != "NULL"]) or not known:
        return None
    nullable = any(t.nullable for t in types if t is not None)
    first = known[0]
    if all(t.numeric for t in known):
        out = first
        for t in known[1:]:
            out = _wider_numeric(out, t)
        return out.with_nullable(nullable) if out is not None else None
    if all(t.family == "char" for t in known):
        if all(t.root == "CHAR" for t in known):
            return FlinkType("CHAR", (max(t.params[0] if t.params else 1 for t in known),), nullable)
        return FlinkType("VARCHAR", (max(t.params[0] if t.params else 1 for t in known),), nullable)
    if all(t.root == first.root and t.text == first.text for t in known):
        return first.with_nullable(nullable)
    return None


def _wider_numeric(a: FlinkType, b: FlinkType) -> FlinkType | None:
    if "DECIMAL" in (a.root, b.root) and a.family == b.family == "exact":
        (p1, s1), (p2, s2) = a.precision_scale(), b.precision_scale()
        scale = max(s1, s2)
        return FlinkType("DECIMAL", _adjust(max(p1 - s1, p2 - s2) + scale, scale))
    if a.root == b.root:
        return a
    return FlinkType(max(a.root, b.root, key=_NUMERIC_ORDER.index))


def implicit_cast(source: FlinkType | None, target: FlinkType | None, flink_version: str | None) -> bool | None:
    """True/False when the version's planner is known to cast `source` into a sink column of type
    `target` by itself (facts generated by planning each pair), None when it is not known (never a guess)."""
    if source is None or target is None:
        return None
    if source.root == "NULL":
        return True
    if source.root in ("ROW", "ARRAY", "MAP", "MULTISET", "RAW") or target.root in ("ROW", "ARRAY", "MAP", "MULTISET", "RAW"):
        return True if source.root == target.root and source.text.upper() == target.text.upper() else None
    verdict = facts_or_default(flink_version).sink_casts.get(target.root, {}).get(source.root)
    return {"yes": True, "no": False}.get(verdict or "")


def row_fields(typ: FlinkType) -> list[tuple[str, str]]:
    """The (name, type text) fields of a `ROW<a INT, b STRING>` (or `ROW(a INT, ...)`); [] when not well formed."""
    if typ.root != "ROW":
        return []
    fields = []
    for name, rest in type_text.row_fields(typ.text):
        fields.append((name, _FIELD_COMMENT.sub("", rest.strip()).strip()))
    return fields


def field_type(typ: FlinkType | None, path: list[str]) -> FlinkType | None:
    """The type of `col.f1.f2` given the column's type (None when unknown)."""
    for name in path:
        if typ is None:
            return None
        found = next((t for n, t in row_fields(typ) if n.lower() == name.lower()), None)
        typ = parse_type(found) if found else None
    return typ
