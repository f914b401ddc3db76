"""Which statements make Flink load or run code that is not Flink's own: decided on the parse.

A task comes from a pull request, and several commands plan it on the machine that runs CI. A
statement that names a jar (`USING JAR`), a Python function (`LANGUAGE PYTHON`), a catalog (its
factory connects somewhere and runs its own classes; Flink's own in-memory catalog excepted) or a
module is refused by every command (FX195), at the statement. The decision reads the statement's
code tokens from sqlfluff's tree: comments and layout are not tokens, so `LANGUAGE /* c */ PYTHON` and `/* c */ CREATE CATALOG` are
seen as what Flink reads. String literals are not keywords, so a value that merely contains
`USING JAR` is not refused.
"""
from __future__ import annotations

from sqlfluff.core.parser import BaseSegment

from flinkx_build.engine_settings import SAFE_CATALOG_TYPES

# leading keywords of statements that load code when Flink executes them
_LEADING: tuple[tuple[str, ...], ...] = (
    ("CREATE", "CATALOG"), ("CREATE", "OR", "REPLACE", "CATALOG"), ("ALTER", "CATALOG"),
    ("CREATE", "MODEL"), ("CREATE", "TEMPORARY", "MODEL"), ("CREATE", "OR", "REPLACE", "MODEL"),
    ("ADD", "JAR"), ("REMOVE", "JAR"), ("LOAD", "MODULE"), ("USE", "MODULES"),
)
# keyword pairs anywhere in a statement that name code to load
_INSIDE: tuple[tuple[str, str], ...] = (("USING", "JAR"), ("LANGUAGE", "PYTHON"))
_LITERALS = ("quoted_literal", "numeric_literal")


def code_words(tree: BaseSegment) -> list[str]:
    """The statement's code tokens, upper-cased; a literal stands as written, quote included (so
    it never equals a keyword, and a catalog's `'type'` value can be read exactly)."""
    out = []
    for raw in tree.raw_segments:
        if raw.is_comment or raw.is_whitespace or not raw.is_code or not raw.raw.strip():
            continue
        out.append(raw.raw if raw.is_type(*_LITERALS) else raw.raw.upper())
    return out


def _safe_catalog(words: list[str]) -> bool:
    """CREATE CATALOG whose one `'type'` is Flink's own in-memory catalog (engine_settings)."""
    types = [words[i + 2] for i in range(len(words) - 2) if words[i].lower() == "'type'" and words[i + 1] == "="]
    return len(types) == 1 and types[0].startswith("'") and types[0][1:-1] in SAFE_CATALOG_TYPES


def _keeps_its_factory(words: list[str]) -> bool:
    """ALTER CATALOG that names no `'type'`: Flink re-creates the catalog with the factory it already
    has, and the only catalogs a task can create are Flink's own in-memory ones (see above)."""
    return not any(w.lower() == "'type'" for w in words)


def loads_code(words: list[str]) -> str:
    """The keywords that make the statement load code ('USING JAR', 'CREATE CATALOG', ...), or ''."""
    words = [w for w in words if w != ";"]
    for leading in _LEADING:
        if tuple(words[: len(leading)]) == leading:
            if leading[0] == "CREATE" and leading[-1] == "CATALOG" and _safe_catalog(words):
                continue
            if leading == ("ALTER", "CATALOG") and _keeps_its_factory(words):
                continue
            return " ".join(leading)
    for first, second in _INSIDE:
        for a, b in zip(words, words[1:]):
            if (a, b) == (first, second):
                return f"{first} {second}"
    return ""
