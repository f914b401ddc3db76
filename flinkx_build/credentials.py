"""Credentials: the one table of option keys whose values are secret, and how they are masked.

A workspace may hold a literal password in a meta table's `with:` block, a
task's `SET tbl.password = '...'` or an OPTIONS hint. Flink needs that value,
so compiled SQL keeps it; everything else flinkx prints or writes (messages,
explain, lint reports, graph, manifest) shows `******` instead. A value that
is only `${name}` placeholders (a declared secret, filled in at deploy time)
is not a secret value and is shown as written.

Keys are matched case-insensitively with `-`, `_` and `.` ignored, so
`password`, `PassWord`, `connection.password`, `secret-key`, `secret_key`,
`accessKey` and `access.key` are all credentials, and `key.fields` is not.
"""
from __future__ import annotations

import re
from typing import Any

MASK = "******"

# Substrings of a normalised key (lower case, no `-`, `_`, `.`) that make it a credential.
# `jaasconfig`: Kafka's `properties.sasl.jaas.config` carries the password inline.
CREDENTIAL_WORDS: tuple[str, ...] = (
    "password", "passwd", "pwd", "secret", "token", "credential",
    "accesskey", "accessid", "privatekey", "apikey", "authkey", "jaasconfig",
)
# normalised keys that hold names, not values: flinkx.yaml's `secrets:` lists the secrets' names
NOT_CREDENTIALS: frozenset[str] = frozenset({"secrets"})
_NORMALISED = re.compile("|".join(CREDENTIAL_WORDS))
_SEPARATORS = re.compile(r"[-_.\s`'\"]")
_PLACEHOLDERS_ONLY = re.compile(r"\s*(\$\{[A-Za-z_][A-Za-z0-9_.]*\}\s*)+")

# `key = value`, `'key' = 'value'`, `key: value`, `key="value"` inside free text
# (a message that quotes a statement, a hint, a YAML line). A quoted value may be
# cut short by an excerpt ("..."), so the closing quote is optional.
_ASSIGNMENT = re.compile(
    r"""(?P<key>[`'"]?[A-Za-z0-9_.\-]+[`'"]?)(?P<sep>\s*(?:=|:)\s*)"""
    r"""(?P<value>'(?:[^'\\]|\\.|'')*'?|"(?:[^"\\]|\\.)*"?|[^\s,;)'"]+)"""
)


def is_credential_key(key: str) -> bool:
    """True for an option key whose value must never be shown (the last dotted part or the whole key)."""
    normalised = _SEPARATORS.sub("", key.lower())
    return normalised not in NOT_CREDENTIALS and bool(_NORMALISED.search(normalised))


def is_placeholder(value: str) -> bool:
    """A value made only of `${name}` placeholders: safe to show."""
    return bool(_PLACEHOLDERS_ONLY.fullmatch(value))


# keys whose value is itself a list of `key=value` settings (a JAAS line): only the
# credentials inside are masked, so `username='u' password='${pw}'` stays readable
STRUCTURED_WORDS: tuple[str, ...] = ("jaasconfig",)


def mask_value(key: str, value: Any) -> Any:
    """`value` as it may be shown for option `key`."""
    if value is None or not is_credential_key(key):
        return value
    text = str(value)
    if is_placeholder(text):
        return value
    if any(word in _SEPARATORS.sub("", key.lower()) for word in STRUCTURED_WORDS):
        return mask_text(text)
    return MASK


def has_literal_credential(key: str, value: Any) -> bool:
    """True when option `key` = `value` writes a credential's value literally (what masking hides)."""
    return value is not None and str(value).strip() != "" and mask_value(key, value) != value


def mask_options(options: dict[str, Any]) -> dict[str, Any]:
    return {k: mask_value(k, v) for k, v in options.items()}


def mask_text(text: str) -> str:
    """Free text with the value of every `credential-key = value` (or `:`) replaced by the mask.

    Quotes around a value are kept so the text still reads like what was written.
    """
    if not text or not _NORMALISED.search(_SEPARATORS.sub("", text.lower())):
        return text  # the common case: nothing that looks like a credential key
    return _ASSIGNMENT.sub(_mask_assignment, text)


def literal_credentials(text: str) -> set[str]:
    """The literal values of credential assignments written in `text` (a statement, a YAML file)."""
    found = set()
    for match in _ASSIGNMENT.finditer(text):
        if is_credential_key(match.group("key").strip("`'\"")):
            value = match.group("value")
            if value[:1] in ("'", '"'):
                value = value[1:-1] if len(value) > 1 and value.endswith(value[0]) else value[1:]
            if len(value) >= MIN_LITERAL and not is_placeholder(value):
                found.add(value)
    return found


# shorter values are masked only where they stand as `key = value` (mask_text): masking
# every "1" or "ab" in a message would garble it and protect nothing
MIN_LITERAL = 3


def mask_in_context(message: str, source: str) -> str:
    """`message` about `source` with every literal credential written in `source` masked.

    For messages that quote a value without its key (a sqlfluff rule saying
    `value "x" must be single-quoted`).
    """
    for literal in sorted(literal_credentials(source), key=len, reverse=True):
        message = message.replace(literal, MASK)
    return mask_text(message)


def _mask_assignment(match: re.Match[str]) -> str:
    key, sep, value = match.group("key"), match.group("sep"), match.group("value")
    if not is_credential_key(key.strip("`'\"")):
        return match.group(0)
    quote = value[0] if value[:1] in ("'", '"') else ""
    inner = value[1:] if quote else value
    closed = quote and len(inner) > 0 and inner.endswith(quote)
    if closed:
        inner = inner[:-1]
    if is_placeholder(inner):
        return match.group(0)
    return f"{key}{sep}{quote}{MASK}{quote if closed else ''}"


def mask_data(data: Any) -> Any:
    """A JSON-like structure with credential values masked: mapping entries by key, strings by `mask_text`."""
    if isinstance(data, dict):
        return {k: (mask_value(k, v) if _is_leaf_credential(k, v) else mask_data(v)) for k, v in data.items()}
    if isinstance(data, list):
        return [mask_data(v) for v in data]
    if isinstance(data, tuple):
        return tuple(mask_data(v) for v in data)
    if isinstance(data, str):
        return mask_text(data)
    return data


def _is_leaf_credential(key: Any, value: Any) -> bool:
    return isinstance(key, str) and not isinstance(value, (dict, list, tuple)) and is_credential_key(key)
