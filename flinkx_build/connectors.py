"""The options each connector accepts (flinkx_build/data/connector_options.json).

`spec_for` finds the connector a table's options name; `unknown_keys` and `missing_required`
answer, for one set of options, which keys the connector does not know (with a "did you mean")
and which required options are absent. The data file says where every list came from: the
connectors in Flink's own jars are generated from Flink's factories (scripts/gen_connector_options.py),
the others are taken from their documentation. A connector that is not in the file is not
checked, so an unfamiliar connector never gets a false alarm.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any
from typing import Iterable
from typing import Mapping

from flinkx_build.errors import did_you_mean

DATA = Path(__file__).with_name("data") / "connector_options.json"
COLUMN = "#"  # in a key pattern: one column name of the table (datagen's fields.#.kind)
# A documented-but-incomplete list only reports near misses: this close, and not only in case
# (Blink-era keys such as tableName may be read without regard to case).
# Table options flinkx's stand-ins read (which connector a table really has, its changelog, a test's fixture
# rows and collector): set by flinkx alone, never by a workspace (issue 41: an OPTIONS hint that set
# 'flinkx.fixture-rows' made `flinkx test` pass a broken task). The Java stand-ins name the same prefix.
RESERVED_OPTION_PREFIX = "flinkx."
# what picks a table's connector: swapped for the stand-in when the table is created, so it may not change after
CONNECTOR_KEYS = frozenset({"connector", "connector.type"})


def reserved_option(key: str) -> bool:
    """Whether a workspace may not write the table option `key`: it is flinkx's own."""
    return key.strip().lower().startswith(RESERVED_OPTION_PREFIX)


NEAR_MISS = 0.85


@dataclass(frozen=True)
class FormatSpec:
    name: str
    options: frozenset[str]
    strict: bool
    source: str


@dataclass(frozen=True)
class ConnectorSpec:
    name: str
    required: tuple[tuple[str, ...], ...]  # groups of alternatives: one key of each must be set
    optional: frozenset[str]
    prefixes: tuple[str, ...]  # keys that take any suffix (properties.*)
    format_keys: tuple[tuple[str, str], ...]  # (option naming a format, prefix of its options)
    format_keys_checked: bool  # False: the connector ignores unknown keys under the format's prefix
    helper: bool  # validated by FactoryUtil's helper, which also accepts `helper_options`
    strict: bool  # complete list: Flink refuses any other key
    source: str
    values: tuple[tuple[str, tuple[str, ...]], ...] = ()  # an enum option's accepted values (documented)
    # a prefix whose keys the connector hands to a client (kafka's `properties.`), with the keys that client reads
    client_prefixes: tuple[tuple[str, "ClientOptions"], ...] = ()
    roles: "Roles | None" = None  # what a table of it can be (documented: `roles_source`); None: not known


@dataclass(frozen=True)
class Roles:
    """What a connector's tables can be: read (a scan source), written (a sink), looked up; None: not known."""

    source: bool
    sink: bool
    lookup: bool | None
    source_of_fact: str


@dataclass(frozen=True)
class ClientOptions:
    """The settings a connector's client library reads (`client_options` in the data file)."""

    name: str  # "kafka"
    options: frozenset[str]
    source: str


@dataclass(frozen=True)
class UnknownKey:
    key: str
    hint: str
    refused: bool  # Flink refuses it ("Unsupported options found"); else a likely typo Flink may not see
    ignored: bool = False  # Flink ignores it (a filesystem table's format keys) instead of refusing it
    client: str = ""  # handed to this client library, which ignores a key it does not read (kafka)


@dataclass(frozen=True)
class Catalog:
    connectors: dict[str, ConnectorSpec]  # by lower-case name and alias
    formats: dict[str, FormatSpec]
    helper_options: frozenset[str]


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    data = json.loads(DATA.read_text(encoding="utf-8"))
    clients = {name: ClientOptions(name, frozenset(e["options"]), e.get("source", ""))
               for name, e in data.get("client_options", {}).items()}
    connectors: dict[str, ConnectorSpec] = {}
    for name, entry in data["connectors"].items():
        spec = ConnectorSpec(
            name=name,
            required=tuple(tuple(group) for group in entry.get("required", [])),
            optional=frozenset(entry.get("optional", [])),
            prefixes=tuple(entry.get("prefixes", [])),
            format_keys=tuple(entry.get("format_keys", {}).items()),
            format_keys_checked=entry.get("format_keys_checked", True),
            helper=entry.get("helper", False),
            strict=entry.get("strict", False),
            source=entry.get("source", ""),
            values=tuple((key, tuple(allowed)) for key, allowed in sorted(entry.get("values", {}).items())),
            client_prefixes=tuple((prefix, clients[client]) for prefix, client in entry.get("client_prefixes", {}).items()),
            roles=Roles(**entry["roles"], source_of_fact=entry.get("roles_source", "")) if "roles" in entry else None,
        )
        for alias in (name, *entry.get("aliases", [])):
            connectors[alias.lower()] = spec
    formats = {name: FormatSpec(name, frozenset(e["options"]), e.get("strict", False), e.get("source", ""))
               for name, e in data["formats"].items()}
    return Catalog(connectors, formats, frozenset(data.get("helper_options", [])))


def connector_name(options: Mapping[str, str], table_type: str) -> str:
    """What the options name as the connector: `connector`, Blink's `type`, else the table type."""
    return (options.get("connector") or options.get("type") or table_type or "").strip()


def spec_for(options: Mapping[str, str], table_type: str) -> ConnectorSpec | None:
    name = connector_name(options, table_type)
    if not name or "${" in name:
        return None
    return catalog().connectors.get(name.lower())


def roles_for(options: Mapping[str, str], table_type: str, factories: Mapping[str, Any]) -> Roles | None:
    """What a table with these options can be: for a connector in the target's jars, its factory's interfaces
    (the generated facts, `factories`: "connector:<name>" -> FactoryFact); for the others, the data file's
    documented roles. None: not known (an unfamiliar connector is never judged)."""
    name = connector_name(options, table_type).lower()
    if not name or "${" in name:
        return None
    factory = factories.get(f"connector:{name}")
    if factory is not None and factory.kinds:
        kinds = set(factory.kinds)
        return Roles("DynamicTableSourceFactory" in kinds, "DynamicTableSinkFactory" in kinds, None,
                     f"the factory of '{name}' in Flink's jars (generated facts)")
    spec = catalog().connectors.get(name)
    return spec.roles if spec is not None else None


def _format_prefixes(spec: ConnectorSpec, options: Mapping[str, str]) -> list[tuple[str, FormatSpec | None]]:
    """(prefix, format) for each format the options select: `json.` for format=json,
    `value.json.` for value.format=json. An unknown format gives None (its keys are not checked)."""
    out = []
    for key, prefix in spec.format_keys:
        value = options.get(key, "").strip()
        if value:
            fmt = None if "${" in value else catalog().formats.get(value.lower())
            out.append((f"{prefix}{value}.", fmt))
    return out


def known_keys(spec: ConnectorSpec, options: Mapping[str, str], columns: Iterable[str]) -> frozenset[str]:
    """Every key the connector accepts with these options (format keys and column patterns expanded)."""
    selected = tuple(options.get(key, "").strip() for key, _ in spec.format_keys)
    return _known_keys(spec, selected, tuple(columns) if _has_column_patterns(spec) else ())


@lru_cache(maxsize=256)
def _has_column_patterns(spec: ConnectorSpec) -> bool:
    """Some option names a column (datagen's `fields.#.kind`). Once per connector: per table, this
    walk over every option name was most of checking 1,800 meta tables' options."""
    return any(COLUMN in k.split(".") for k in spec.optional)


@lru_cache(maxsize=1024)
def _known_keys(spec: ConnectorSpec, selected: tuple[str, ...], columns: tuple[str, ...]) -> frozenset[str]:
    # cached: a workspace's tables share a few connectors, formats and (datagen aside) no columns
    known = {"connector", "type"} | set(spec.optional) | {k for group in spec.required for k in group}
    if spec.helper:
        known |= catalog().helper_options
    for pattern in [k for k in known if COLUMN in k.split(".")]:
        known.discard(pattern)
        known |= {".".join(name if part == COLUMN else part for part in pattern.split(".")) for name in columns}
    for prefix, fmt in _format_prefixes(spec, dict(zip((k for k, _ in spec.format_keys), selected))):
        if fmt is not None:
            known |= {prefix + option for option in fmt.options}
    return frozenset(known)


def unknown_keys(spec: ConnectorSpec, options: Mapping[str, str], keys: Iterable[str], columns: Iterable[str],
                 allowed: Iterable[str] = ()) -> list[UnknownKey]:
    """The keys among `keys` that the connector does not accept with `options`.

    `allowed` are keys checked elsewhere (engine-only options such as MRS's source.parallelism).
    """
    known = known_keys(spec, options, columns) | frozenset(allowed)
    formats = _format_prefixes(spec, options)
    out = []
    for key in keys:
        if key in known:
            continue
        if key.startswith(spec.prefixes):  # a tuple: one C call, not a generator per key
            out.extend(_client_key(spec, key))
            continue
        under = next((fmt for prefix, fmt in formats if key.startswith(prefix)), False)
        if under is None:
            continue  # under the prefix of a format flinkx has no list for
        complete = spec.strict and (under is False or under.strict)
        if not complete and not _near_miss(key, known):
            continue  # a partial list reports near misses only
        ignored = under is not False and not spec.format_keys_checked
        out.append(UnknownKey(key, did_you_mean(key, known), refused=complete and not ignored, ignored=ignored))
    return out


def _client_key(spec: ConnectorSpec, key: str) -> list[UnknownKey]:
    """A key under a client prefix (`properties.group.idd`) that is a near miss of a setting the client reads:
    the client ignores what it does not read, so a typo silently leaves the setting as it was. Only near
    misses: a client takes plug-in settings (a SASL callback's, an interceptor's) no list holds."""
    for prefix, client in spec.client_prefixes:
        if key.startswith(prefix):
            name = key[len(prefix):]
            if name in client.options or not _near_miss(name, client.options):
                return []
            near = difflib.get_close_matches(name, sorted(client.options), n=1, cutoff=NEAR_MISS)
            hint = f"did you mean '{prefix}{near[0]}'?" if near else ""
            return [UnknownKey(key, hint, refused=False, client=client.name)]
    return []


def _near_miss(key: str, known: frozenset[str]) -> bool:
    lowered = {k.lower() for k in known}
    if key.lower() in lowered:
        return False
    return bool(difflib.get_close_matches(key.lower(), list(lowered), n=1, cutoff=NEAR_MISS))


def missing_required(spec: ConnectorSpec, options: Mapping[str, str]) -> list[tuple[str, ...]]:
    """The required groups none of whose keys is set (a `${...}` value counts as set)."""
    return [group for group in spec.required if not any(key in options for key in group)]
