"""What flinkx knows about each Flink version: one catalog per version, read from data/flink/<v>/.

`facts_for(version)` returns a version's `FlinkFacts`: the SQL parser's keywords (and which of
them it rejects as bare names), the functions SQL can call (with their argument counts), the
type names, every configuration option (with deprecated and fallback keys), the table factories
in the version's jars, and what the version removed or added against the version before it.
`scripts/gen_flink_facts.py` writes those files from the version's own jars; nothing here
states a Flink fact by hand. Adding a version is one step (docs/flink-versions.md): generate
its folder. A workspace picks its version with `flink_version` in flinkx.yaml.

The files in `data/` beside the version folders (`flink_reserved_words.json`,
`flink_builtin_functions.txt`, `flink_types.txt`, `flink_sink_casts.json`) are the record of what
lint used before the facts were generated per version (written once from PyFlink 1.20.5 by a script
retired with PyFlink): tests compare 1.20's facts with them and no code reads them.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field
from functools import cached_property
from functools import lru_cache
from importlib import resources
from typing import Any
from typing import Mapping

DEFAULT_VERSION = "1.20"  # a workspace without flink_version
ADD_VERSION_DOC = "docs/flink-versions.md"
_SIMPLE_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_VERSION = re.compile(r"^(\d+)\.(\d+)(?:\.\d+)?$")


class UnknownFlinkVersion(ValueError):
    """A flink_version flinkx has no catalog for."""


@dataclass(frozen=True)
class OptionFact:
    key: str
    type: str
    values: tuple[str, ...]  # an enum option's accepted values (Flink matches them ignoring case)
    default: str | None
    deprecated: bool  # the option itself is @Deprecated
    deprecated_keys: tuple[str, ...]
    fallback_keys: tuple[str, ...]


@dataclass(frozen=True)
class RemovedOption:
    key: str
    removed_in: str
    replacement: str | None  # the key that replaces it, where the older jars name one


@dataclass(frozen=True)
class FactoryFact:
    name: str
    kind: str  # "connector" | "format"
    required: Mapping[str, OptionFact]
    optional: Mapping[str, OptionFact]
    kinds: tuple[str, ...] = ()  # the factory interfaces it implements: DynamicTableSourceFactory, DynamicTableSinkFactory, ...

    def option(self, key: str) -> OptionFact | None:
        return self.required.get(key) or self.optional.get(key)


@dataclass(frozen=True)
class FlinkFacts:
    version: str  # major.minor, the folder's name
    full_version: str  # the jars' version, e.g. 1.20.5
    previous: str  # the supported version before this one ('' for the first)
    keywords: Mapping[str, str]  # upper-case word -> "error" (rejected bare) | "warning"
    functions: frozenset[str]  # upper-case names SQL can call
    arity: Mapping[str, tuple[int, int | None]]  # name -> (min, max or None) where fixed
    signatures: Mapping[str, tuple[str, ...]]
    aggregates: frozenset[str]  # aggregate functions (ROW_NUMBER and the like are `over_only`)
    over_only: frozenset[str]  # functions only an OVER window takes
    sql_types: frozenset[str]  # SQL type names the DDL parser takes (upper case, may hold spaces)
    type_keywords: frozenset[str]  # the type-string parser's keywords (LogicalTypeParser)
    options: Mapping[str, OptionFact]
    factories: Mapping[str, FactoryFact]  # "connector:datagen", "format:json"
    removed: Mapping[str, RemovedOption]  # options the previous version read and this one does not
    sink_casts: Mapping[str, Mapping[str, str]]  # target type root -> source root -> yes | no | depends
    return_types: Mapping[str, str]  # built-in name -> its result type where it does not depend on the arguments' types
    types_added: frozenset[str] = field(default_factory=frozenset)  # against `previous`
    keywords_added: frozenset[str] = field(default_factory=frozenset)  # newly rejected bare
    functions_added: frozenset[str] = field(default_factory=frozenset)

    @cached_property
    def reserved(self) -> frozenset[str]:
        """Words the parser rejects written bare as a name."""
        return frozenset(w for w, level in self.keywords.items() if level == "error")

    @cached_property
    def type_heads(self) -> frozenset[str]:
        """Words a column type may start with: the SQL type names' first words, and INTERVAL and
        NULL, which the type-string parser reads (a column's type in YAML is such a string)."""
        return frozenset(n.split()[0] for n in self.sql_types) | (self.type_keywords & {"INTERVAL", "NULL"})

    def main_key(self, key: str) -> str | None:
        """The option a key sets in this version (itself, or the option it is a deprecated or
        fallback key of), None when this version reads no such option."""
        return _key_index(self.version).get(key)


def normalized(version: str) -> str:
    """'1.20.5' -> '1.20'; raises UnknownFlinkVersion for text that is no version."""
    match = _VERSION.match(version.strip())
    if not match:
        raise UnknownFlinkVersion(version)
    return f"{int(match.group(1))}.{int(match.group(2))}"


@lru_cache(maxsize=1)
def supported_versions() -> tuple[str, ...]:
    """The versions with a catalog, oldest first."""
    root = resources.files("flinkx_build.data").joinpath("flink")
    found = [p.name for p in root.iterdir() if p.is_dir() and _VERSION.match(p.name)]
    return tuple(sorted(found, key=lambda v: tuple(int(p) for p in v.split("."))))


def unknown_version_message(version: str) -> str:
    return (f"flink_version '{version}' is not a Flink version flinkx has facts for "
            f"(supported: {', '.join(supported_versions())})")


def facts_for(version: str | None) -> FlinkFacts:
    """The catalog of a workspace's `flink_version` (None: the default)."""
    wanted = normalized(version) if version else DEFAULT_VERSION
    if wanted not in supported_versions():
        raise UnknownFlinkVersion(version or "")
    return _load(wanted)


def facts_or_default(version: str | None) -> FlinkFacts:
    """Like facts_for, but the default catalog for a version flinkx does not know: the loader has
    reported it (FX121) already, and every later stage goes on with the default."""
    try:
        return facts_for(version)
    except UnknownFlinkVersion:
        return _load(DEFAULT_VERSION)


def _read(version: str, name: str) -> tuple[str, Any]:
    text = resources.files("flinkx_build.data").joinpath("flink").joinpath(version).joinpath(f"{name}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return data["flink_version"], data[name]


def _option(key: str, raw: Mapping[str, Any]) -> OptionFact:
    return OptionFact(key=key, type=raw["type"], values=tuple(raw.get("values", ())), default=raw.get("default"),
                      deprecated=bool(raw.get("deprecated")), deprecated_keys=tuple(raw.get("deprecated_keys", ())),
                      fallback_keys=tuple(raw.get("fallback_keys", ())))


@lru_cache(maxsize=None)
def _load(version: str) -> FlinkFacts:
    full, keywords = _read(version, "keywords")
    _, functions = _read(version, "functions")
    _, types = _read(version, "types")
    _, options = _read(version, "options")
    _, factories = _read(version, "factories")
    _, removed = _read(version, "removed")
    _, sink_casts = _read(version, "sink_casts")
    _, return_types = _read(version, "return_types")
    return FlinkFacts(
        version=version,
        full_version=full,
        previous=removed.get("from", ""),
        keywords={w.upper(): level for w, level in keywords.items()},
        functions=frozenset(functions),
        arity={n: (f["arity"][0], f["arity"][1]) for n, f in functions.items() if f.get("arity")},
        signatures={n: tuple(f.get("signatures", ())) for n, f in functions.items()},
        aggregates=frozenset(n for n, f in functions.items() if f.get("aggregate")),
        over_only=frozenset(n for n, f in functions.items() if f.get("over_only")),
        sql_types=frozenset(types["sql_types"]),
        type_keywords=frozenset(types["type_string_keywords"]),
        options={k: _option(k, v) for k, v in options.items()},
        factories={name: FactoryFact(name=f["name"], kind=f["kind"],
                                     required={k: _option(k, v) for k, v in f["required"].items()},
                                     optional={k: _option(k, v) for k, v in f["optional"].items()},
                                     kinds=tuple(f.get("kinds", ())))
                   for name, f in factories.items()},
        removed={k: RemovedOption(k, v["removed_in"], v.get("replacement")) for k, v in removed["options"].items()},
        sink_casts=sink_casts,
        return_types=return_types,
        types_added=frozenset(removed.get("types_added", ())),
        keywords_added=frozenset(removed.get("keywords_added", ())),
        functions_added=frozenset(removed.get("functions_added", ())),
    )


@lru_cache(maxsize=None)
def _key_index(version: str) -> dict[str, str]:
    index: dict[str, str] = {}
    for key, option in _load(version).options.items():
        index[key] = key
        for other in option.deprecated_keys + option.fallback_keys:
            index.setdefault(other, key)
    return index


# ---------------------------------------------------------------- one version's answers
def builtin_functions(version: str | None) -> frozenset[str]:
    """Upper-case names of the version's built-in functions."""
    return facts_or_default(version).functions


def reserved_words(version: str | None) -> dict[str, str]:
    """Upper-case word -> "error" (the version's parser rejects it bare) or "warning" (a keyword it accepts)."""
    return dict(facts_or_default(version).keywords)


def quote_identifier(name: str, version: str | None) -> str:
    """Backtick-quote a name when the target's parser could read it as something else."""
    # only words the target's parser really rejects: `a` or `name` stay bare
    if _SIMPLE_IDENTIFIER.match(name) and facts_or_default(version).keywords.get(name.upper()) != "error":
        return name
    return "`" + name.replace("`", "``") + "`"


@lru_cache(maxsize=1)
def rejected_in_any_version() -> frozenset[str]:
    """Words some supported version rejects bare: what the parse (which does not know the target)
    quotes to stay safe on every version."""
    return frozenset(w for v in supported_versions() for w in _load(v).reserved)


def quote_for_every_version(name: str) -> str:
    """Backtick-quote a name any supported version's parser would reject bare."""
    if _SIMPLE_IDENTIFIER.match(name) and name.upper() not in rejected_in_any_version():
        return name
    return "`" + name.replace("`", "``") + "`"


@lru_cache(maxsize=1)
def type_heads_of_any_version() -> frozenset[str]:
    """Type names some supported version knows: the loader reads YAML before it knows the target,
    so it refuses only what no version knows (FX107); a type the target lacks is FX124."""
    return frozenset(h for v in supported_versions() for h in _load(v).type_heads)


@lru_cache(maxsize=1)
def aggregates_of_any_version() -> frozenset[str]:
    """Aggregate functions of some supported version: the semantic model reads a task without its
    target, and a name that aggregates in one version is no plain function in another."""
    return frozenset(n for v in supported_versions() for n in _load(v).aggregates)


@lru_cache(maxsize=1)
def over_only_of_any_version() -> frozenset[str]:
    """Functions some supported version takes only over a window (ROW_NUMBER, RANK, LAG, ...)."""
    return frozenset(n for v in supported_versions() for n in _load(v).over_only)


def versions_with_type(name: str) -> list[str]:
    """The supported versions whose parser knows the type name."""
    return [v for v in supported_versions() if name.upper() in _load(v).type_heads]


def versions_with_function(name: str) -> list[str]:
    """The supported versions that have the built-in function."""
    return [v for v in supported_versions() if name.upper() in _load(v).functions]


def data_text(name: str) -> str:
    try:
        return resources.files("flinkx_build.data").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return ""
