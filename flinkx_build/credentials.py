"""Credentials: the one table of the words that make an option key a credential, and how values are masked.

A workspace may hold a literal password in a meta table's `with:` block, a
task's `SET tbl.password = '...'`, a task-local `CREATE TEMPORARY TABLE ...
WITH (...)` or an OPTIONS hint. Flink needs that value, so compiled SQL keeps
it; everything else flinkx prints or writes (messages, explain, lint reports,
graph, manifest, language server) shows `******` instead. A value that is only
`${name}` placeholders (a declared secret, filled in at deploy time) is not a
secret value and is shown as written.

A key is recognised by its parts, not looked up in a list of connector
options, so a connector flinkx has never heard of is covered too. The key is
cut into parts at `.`, `-`, `_`, spaces, quotes and lower-to-upper case steps
(`authParams` -> `auth`, `params`), and lower-cased. It is a credential when

* its parts joined (`basicauthuserinfo`) contain a `CREDENTIAL_WORDS` entry
  (`password`, `passphrase`, `secret`, `userinfo`, `authparams`, ...), or
* one part is a `CREDENTIAL_PARTS` entry (`pwd`, `token`, `private`), or
* its last part is `key` and the part before it does not name a data role
  (`ssl.keystore.key`, `private.key`, `access-key` are credentials;
  `primary-key`, `bucket-key`, `key.fields`, `keyspace` and a bare `key` are not),

unless its last part names a setting about a credential rather than the
credential itself (`credentials-source`, `ssl.keystore.type`,
`password.file`: `SETTING_SUFFIXES`) or the whole key is `secrets`
(flinkx.yaml's list of secret names). docs/decisions.md lists why each word is
(or is not) in these tables.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

MASK = "******"

# The tables. Substrings of the joined, lower-cased parts: long enough not to occur by chance.
# `jaas`: Kafka's `properties.sasl.jaas.config` carries the password inline; `authparams`:
# Pulsar's `authParams` carries a token; `userinfo`: Confluent's `basic-auth.user-info` is `user:password`.
CREDENTIAL_WORDS: tuple[str, ...] = (
    "password", "passwd", "passphrase", "secret", "credential", "jaas", "userinfo", "authparam",
    "privatekey", "accesskey", "accessid", "apikey", "authkey", "authorization", "cookie",
)
# whole parts only: as substrings they would match `tokenizer`, `pwdless`-like words, `privileges`, `passthrough`,
# `sink`, `break` or Kafka's `sasl.oauthbearer.*` settings. `pass` (`db.pass`), `bearer` (`auth.bearer`), and
# `sk`/`ak` (an object store's secret and access key: `oss.sk`)
CREDENTIAL_PARTS: frozenset[str] = frozenset({"pwd", "token", "tokens", "private", "pass", "bearer", "sk", "ak"})
# a last part `key` after one of these names a column, field or partitioning key, not a secret
DATA_KEY_ROLES: frozenset[str] = frozenset({
    "primary", "bucket", "partition", "sort", "routing", "message", "record", "row", "hash", "shard",
    "sharding", "distribution", "cluster", "clustering", "foreign", "unique", "index", "join", "group",
    "order", "sequence", "chunk", "split", "lookup", "cache", "dedup", "merge", "upsert", "document",
    "object", "state", "kafka", "redis", "default", "value",
})
# a last part that says how a credential is given, not what it is: its value is a setting
SETTING_SUFFIXES: frozenset[str] = frozenset({
    "source", "type", "path", "file", "location", "mode", "mechanism", "algorithm", "provider", "class",
    "enabled", "enable", "format", "name", "names", "url", "uri", "endpoint", "interval", "timeout", "ttl",
    "expiry", "expiration", "length", "size", "field", "fields", "column", "columns",
})
# whole keys that hold names, not values: flinkx.yaml's `secrets:` lists the secrets' names
NOT_CREDENTIALS: frozenset[str] = frozenset({"secrets"})
# keys whose value is itself a list of `key=value` settings (a JAAS line): only the
# credentials inside are masked, so `username='u' password='${pw}'` stays readable
STRUCTURED_WORDS: tuple[str, ...] = ("jaasconfig",)

_SEPARATORS = frozenset("-_. \t\r\n`'\"")
_DROP_SEPARATORS = str.maketrans("", "", "".join(_SEPARATORS))
# what `mask_text` looks for before it runs the assignment pattern (a cheap filter)
_ANY_WORD = re.compile("|".join((*CREDENTIAL_WORDS, *sorted(CREDENTIAL_PARTS), "key")))
_PLACEHOLDERS_ONLY = re.compile(r"\s*(\$\{[A-Za-z_][A-Za-z0-9_.]*\}\s*)+")

# `key = value`, `'key' = 'value'`, `key: value`, `key="value"` inside free text
# (a message that quotes a statement, a hint, a YAML line). A quoted value may be
# cut short by an excerpt ("..."), so the closing quote is optional. The look-behind
# lets a key start only where a run of key characters starts: tried from every
# character of a long run, the pattern would scan the rest of the run each time
# (quadratic in the run's length).
_KEY_CHARS = r"A-Za-z0-9_.\-"
_ASSIGNMENT = re.compile(
    rf"""(?<![{_KEY_CHARS}])(?P<key>[`'"]?[{_KEY_CHARS}]+[`'"]?)(?P<sep>\s*(?:=|:)\s*)"""
    r"""(?P<value>'(?:[^'\\]|\\.|'')*'?|"(?:[^"\\]|\\.)*"?|[^\s,;)'"]+)"""
)


_SEPARATORS_TO_SPACE = str.maketrans({ch: " " for ch in _SEPARATORS})


def key_parts(key: str) -> list[str]:
    """`key` cut at separators and lower-to-upper case steps, lower-cased: `sasl.authParams` -> sasl, auth, params."""
    if key.islower() or not any(ch.isupper() for ch in key):  # no case step: cut at separators only, in C
        return [part for part in key.translate(_SEPARATORS_TO_SPACE).lower().split(" ") if part]
    parts: list[str] = []
    current: list[str] = []
    previous = ""
    for ch in key:
        if ch in _SEPARATORS:
            if current:
                parts.append("".join(current).lower())
            current, previous = [], ""
            continue
        if ch.isupper() and (previous.islower() or previous.isdigit()) and current:
            parts.append("".join(current).lower())
            current = []
        current.append(ch)
        previous = ch
    if current:
        parts.append("".join(current).lower())
    return parts


# cached: a workspace spells the same few dozen option keys in every meta table (65,000 calls,
# 0.17 s of a build of 1,600 projects that changed one task, measured; 5 ms cached)
@lru_cache(maxsize=4096)
def is_credential_key(key: str) -> bool:
    """True for an option key whose value must never be shown (the rule is in the module's docstring)."""
    parts = key_parts(key)
    if not parts:
        return False
    joined = "".join(parts)
    if joined in NOT_CREDENTIALS or parts[-1] in SETTING_SUFFIXES:
        return False
    if any(word in joined for word in CREDENTIAL_WORDS) or any(part in CREDENTIAL_PARTS for part in parts):
        return True
    return len(parts) > 1 and parts[-1] in ("key", "keys") and parts[-2] not in DATA_KEY_ROLES


def is_placeholder(value: str) -> bool:
    """A value made only of `${name}` placeholders: safe to show."""
    return bool(_PLACEHOLDERS_ONLY.fullmatch(value))


def mask_value(key: str, value: Any) -> Any:
    """`value` as it may be shown for option `key`."""
    if value is None or not is_credential_key(key):
        return value
    text = str(value)
    if is_placeholder(text):
        return value
    if any(word in "".join(key_parts(key)) for word in STRUCTURED_WORDS):
        return mask_text(text)
    return MASK


def has_literal_credential(key: str, value: Any) -> bool:
    """True when option `key` = `value` writes a credential's value literally (what masking hides)."""
    return value is not None and str(value).strip() != "" and mask_value(key, value) != value


def mask_options(options: dict[str, Any]) -> dict[str, Any]:
    return {k: mask_value(k, v) for k, v in options.items()}


def mask_text(text: str) -> str:
    """Free text with the value of every `credential-key = value` (or `:`) replaced by the mask, and every value of a
    credential-named variable (`remember_credential_variables`).

    Quotes around a value are kept so the text still reads like what was written.
    """
    return mask_variable_values(_mask_text(text, 0))


# The values of variables whose names are credential keys (`db_password: hunter2` in flinkx.yaml or a project). A
# task that writes `${db_password}` as a table or column name makes the value part of an identifier, and so of
# messages, reports and pages, where no `key = value` shows it is one (issue 41). `Workspace.context_for` remembers
# them before anything renders with them; every text flinkx prints passes `mask_variable_values`. Kept for the
# process (a language server sees several workspaces): masking more is the safe side.
_variable_values: set[str] = set()
_variable_values_longest_first: tuple[str, ...] = ()


def remember_credential_variables(variables: dict[str, Any]) -> None:
    """Remember the values of the credential-named variables among `variables` (name -> value) for masking."""
    global _variable_values_longest_first
    found = {str(v) for k, v in variables.items() if is_credential_key(k) and len(str(v).strip()) >= MIN_LITERAL
             and not is_placeholder(str(v))} - _variable_values
    if found:
        _variable_values.update(found)
        _variable_values_longest_first = tuple(sorted(_variable_values, key=len, reverse=True))


def mask_variable_values(text: str) -> str:
    """`text` with every remembered credential variable's value replaced by the mask."""
    for value in _variable_values_longest_first:
        if value in text:
            text = text.replace(value, MASK)
    return text


# A message may quote a statement in a quoted value (`cannot parse: "WITH ('k' = 'v'"`): the
# value of a key that is no credential is searched too, to this depth (each level is one more
# pass over the text at most, so the work stays linear in its length)
_NESTED_QUOTES = 3


def _mask_text(text: str, depth: int) -> str:
    if not text or not _ANY_WORD.search(text.lower().translate(_DROP_SEPARATORS)):
        return text  # the common case: nothing that looks like a credential key
    return _ASSIGNMENT.sub(lambda match: _mask_assignment(match, depth), text)


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


def _mask_assignment(match: re.Match[str], depth: int) -> str:
    key, sep, value = match.group("key"), match.group("sep"), match.group("value")
    quote = value[0] if value[:1] in ("'", '"') else ""
    inner = value[1:] if quote else value
    closed = quote and len(inner) > 0 and inner.endswith(quote)
    if closed:
        inner = inner[:-1]
    if not is_credential_key(key.strip("`'\"")):
        if quote and depth < _NESTED_QUOTES:
            return f"{key}{sep}{quote}{_mask_text(inner, depth + 1)}{quote if closed else ''}"
        return match.group(0)
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
