"""TableHints: ``/*+ name, name(k='v'), name(a, b) */`` (seed 000's grammar).

sqlfluff keeps hints as comments; `frontend.parse` finds them in the token
stream and attaches each to the table reference (or SELECT) before it. This
module only reads the hint text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^'\\]|\\.|'')*')|(?P<dstr>\"(?:[^\"]|\"\")*\")|(?P<word>[A-Za-z_][A-Za-z0-9_.$-]*)|(?P<num>-?\d+(?:\.\d+)?)|(?P<sym>[(),=]))"
)


@dataclass(frozen=True)
class HintItem:
    name: str
    args: tuple[str, ...] = ()  # positional: identifiers, numbers, unquoted strings
    options: tuple[tuple[str, str], ...] = ()  # k = v pairs, in order
    quoted_keys: bool = False  # OPTIONS('k'='v') rather than primarykey(k=v)

    @property
    def lower(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class HintParseError:
    message: str
    offset: int  # in the hint text


@dataclass
class ParsedHint:
    items: list[HintItem] = field(default_factory=list)
    error: HintParseError | None = None


def unquote(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'").replace("\\'", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':  # Flink rejects it; FX02 says so and fixes it
        return text[1:-1].replace('""', '"')
    return text


def double_quoted_strings(comment: str) -> list[tuple[int, str]]:
    """(offset in `comment`, token) of each double-quoted string of a hint: Flink's parser rejects
    them (`OPTIONS('k'="v")`); FX02 rewrites them single-quoted, as in WITH."""
    found: list[tuple[int, str]] = []
    pos = 3 if comment.startswith("/*+") else 0
    while pos < len(comment):
        m = _TOKEN.match(comment, pos)
        if not m:  # the closing `*/`, or text `parse_hint` reports as FX152: one pass, no rescans
            break
        if m.lastgroup == "dstr":
            found.append((m.start("dstr"), m.group("dstr")))
        pos = m.end()
    return found


def as_single_quoted(token: str) -> str:
    """A double-quoted string token as the single-quoted literal Flink reads (quotes inside doubled)."""
    text = token[1:-1].replace('""', '"')
    return "'" + text.replace("'", "''") + "'"


def double_quoted_message(what: str, token: str) -> str:
    """FX02's words for a double-quoted `what` ("SET value", "hint value"): the sqlfluff rule and the
    build say exactly this, so lint and `build --check` print one line."""
    return f"{what} {token} must be a single-quoted string: {as_single_quoted(token)}."


def parse_hint(comment: str) -> ParsedHint:
    """Parse the text of a ``/*+ ... */`` comment."""
    body = comment[3:-2] if comment.startswith("/*+") and comment.endswith("*/") else comment
    base = 3 if comment.startswith("/*+") else 0
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(body):
        if not body[pos:].strip():
            break
        m = _TOKEN.match(body, pos)
        if not m:
            return ParsedHint(error=HintParseError(f"unexpected '{body[pos:].strip()[:10]}' in hint", base + pos))
        kind = m.lastgroup or "sym"
        tokens.append((kind, m.group(kind), base + m.start(kind)))
        pos = m.end()
    result = ParsedHint()
    i = 0
    while i < len(tokens):
        kind, text, offset = tokens[i]
        if kind != "word":
            result.error = HintParseError(f"expected a hint name, found '{text}'", offset)
            return result
        i += 1
        if i < len(tokens) and tokens[i][1] == "(":
            args, options, quoted, i, err = _arguments(tokens, i + 1)
            if err:
                result.error = err
                return result
            result.items.append(HintItem(text, tuple(args), tuple(options), quoted))
        else:
            result.items.append(HintItem(text))
        if i < len(tokens) and tokens[i][1] == ",":
            i += 1
        elif i < len(tokens) and tokens[i][0] == "word":  # Flink 1.20 rejects `/*+ BROADCAST(a) SHUFFLE_HASH(a) */`
            # (checked with its parser); anything but a name there is the loop's "expected a hint name"
            result.error = HintParseError(f"hints are separated by commas: add ',' before '{tokens[i][1]}'", tokens[i][2])
            return result
    return result


def _arguments(tokens, i):
    args: list[str] = []
    options: list[tuple[str, str]] = []
    quoted = False
    while i < len(tokens):
        kind, text, offset = tokens[i]
        if text == ")":
            return args, options, quoted, i + 1, None
        if text == ",":
            i += 1
            continue
        if kind == "sym":
            return args, options, quoted, i, HintParseError(f"unexpected '{text}' in hint arguments", offset)
        if i + 2 < len(tokens) and tokens[i + 1][1] == "=":
            quoted = quoted or kind in ("str", "dstr")
            options.append((unquote(text), unquote(tokens[i + 2][1])))
            i += 3
            continue
        args.append(unquote(text))
        i += 1
    last = tokens[-1][2] if tokens else 0
    return args, options, quoted, i, HintParseError("hint arguments are not closed with ')'", last)
