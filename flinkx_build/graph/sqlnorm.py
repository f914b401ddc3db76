"""A small SQL lexer for two questions the parsed facts do not answer.

1. Did a statement change *semantically*? `normalize_sql` drops comments and
   whitespace and upper-cases keywords and function names, so a change of
   layout, comments or keyword case compares equal. Table hints (`/*+ ... */`)
   are kept: they change the job.
2. Which `*` wildcards does a statement have? sqlfluff types `*` as a
   wildcard, not a column reference, so `columns_read` never sees it.

A regex lexer is enough here: both questions need tokens, not a tree, and
re-parsing every statement with sqlfluff would cost what the parse cache saves.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<hint>/\*\+.*?\*/)
  | (?P<block>/\*.*?(?:\*/|\Z))
  | (?P<line>--[^\n]*)
  | (?P<string>'(?:[^']|'')*(?:'|\Z))
  | (?P<dstring>"(?:[^"]|"")*(?:"|\Z))
  | (?P<quoted>`(?:[^`]|``)*(?:`|\Z))
  | (?P<number>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)
  | (?P<word>[^\W\d]\w*)
  | (?P<op><>|<=|>=|!=|\|\||::|=>|->)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)
_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# After these a `name (` is a table or object name with a column list, not a call.
_NOT_A_CALL_AFTER = {"INTO", "TABLE", "VIEW", "FUNCTION", "JOIN", "FROM", "EXISTS"}
_WILDCARD_AFTER = {"SELECT", "DISTINCT", "ALL", ","}


@dataclass(frozen=True)
class Token:
    kind: str  # word | quoted | string | number | op | punct | hint
    text: str

    @property
    def ident(self) -> str:
        """The identifier a word or `quoted` token names."""
        if self.kind == "quoted":
            return self.text[1:-1].replace("``", "`")
        return self.text


@lru_cache(maxsize=1)
def keywords() -> frozenset[str]:
    """The dataphin dialect's keywords (Flink SQL's, plus Dataphin's own)."""
    from sqlfluff.core import dialect_selector

    from flinkx_build.frontend import dialect

    dialect.register()
    d = dialect_selector(dialect.DIALECT_NAME)
    return frozenset(w.upper() for w in (*d.sets("reserved_keywords"), *d.sets("unreserved_keywords")))


def tokens(text: str) -> list[Token]:
    """Code tokens of `text`: whitespace and comments dropped, hints kept."""
    out = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup or "punct"
        if kind in ("ws", "block", "line"):
            continue
        if kind == "dstring":
            kind = "string"
        out.append(Token(kind, m.group()))
    return out


def normalize_sql(text: str) -> str:
    """One canonical line per statement text: equal for layout-only changes.

    Keywords and function names are upper-cased (Flink reads them without
    regard to case); identifiers keep their case, and a backtick-quoted plain
    identifier is written bare, since the quotes change nothing. The one
    blind spot: a column whose name is also a keyword (`name`, `value`)
    compares equal across a change of its case alone.
    """
    toks = tokens(text)
    words = keywords()
    out = []
    for i, tok in enumerate(toks):
        text_ = tok.text
        if tok.kind == "word":
            upper = text_.upper()
            prev = toks[i - 1].text.upper() if i else ""
            nxt = toks[i + 1].text if i + 1 < len(toks) else ""
            is_call = nxt == "(" and prev not in _NOT_A_CALL_AFTER and prev != "."
            if upper in words and prev != "." and nxt != ".":
                text_ = upper
            elif is_call:
                text_ = upper
        elif tok.kind == "quoted":
            name = tok.ident
            if _SIMPLE.match(name) and name.upper() not in words:
                text_ = name
        elif tok.kind == "hint":
            text_ = "/*+ " + normalize_sql(text_[3:-2]) + " */"
        out.append(text_)
    return " ".join(out)


def wildcards(text: str) -> list[str | None]:
    """The `*` wildcards of a statement: None for a bare `*`, else the qualifier of `q.*`.

    `COUNT(*)` and `a * b` are not wildcards: a wildcard follows SELECT,
    DISTINCT, ALL or a comma, or is qualified (`alias.*`).
    """
    toks = tokens(text)
    found: list[str | None] = []
    for i, tok in enumerate(toks):
        if tok.text != "*" or i == 0:
            continue
        prev = toks[i - 1]
        if prev.text == "." and i >= 2 and toks[i - 2].kind in ("word", "quoted"):
            found.append(toks[i - 2].ident)
        elif prev.text.upper() in _WILDCARD_AFTER:
            found.append(None)
    return found
