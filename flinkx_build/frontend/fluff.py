"""How flinkx drives sqlfluff's linter: its configuration, and one statement at a time.

flinkx parses (and lints) a task statement by statement, about five calls a task,
so what sqlfluff does once per call adds up at a thousand tasks. Per call (sqlfluff
4.5): `Linter.parse_string` deep-copies the whole configuration to apply `-- sqlfluff:`
comments to it, `Linter.lint_string` builds the rule pack again, validating the
configuration and making every rule, and each parse computes every grammar's
`simple()` hints again (a quarter of a short statement's parse). The functions
here make the same calls without that work:

* `parse_statement` renders and parses with the linter's own configuration:
  flinkx configures lint in flinkx.yaml, and a `-- sqlfluff:` comment in a task
  is a comment (docs/decisions.md), so there is nothing to copy the config for;
* `lint_statement` lints that parse with the rule pack made once per linter;
* `share_hint_cache` lets the grammars keep their `simple()` hints across parses
  (below).

The trees are sqlfluff's own, unchanged: tests/frontend/test_fluff.py compares them
with `Linter.parse_string`'s over the corpus.
"""
from __future__ import annotations

import uuid
from functools import lru_cache

from sqlfluff.core import FluffConfig
from sqlfluff.core import Linter
from sqlfluff.core.linter import LintedFile
from sqlfluff.core.linter import ParsedString
from sqlfluff.core.parser.context import ParseContext
from sqlfluff.core.rules import RulePack

from flinkx_build.frontend import dialect
from flinkx_build.variables import sqlfluff_templater_config


def fluff_config(context: tuple[tuple[str, str], ...], extra: tuple[tuple[str, dict], ...] = ()) -> FluffConfig:
    """sqlfluff configuration for the dataphin dialect and this variable context."""
    dialect.register()
    core = {
        "dialect": dialect.DIALECT_NAME,
        "templater": "placeholder",
        "large_file_skip_byte_limit": 0,
        "use_rust_parser": False,
    }
    configs = {
        "core": core,
        "templater": {"placeholder": sqlfluff_templater_config(dict(context))},
    }
    for section, value in extra:
        configs.setdefault(section, {}).update(value)  # type: ignore[attr-defined]
    share_hint_cache()
    return FluffConfig(configs=configs, overrides={"dialect": dialect.DIALECT_NAME})


def parse_statement(linter: Linter, text: str, fname: str) -> ParsedString:
    """`linter.parse_string(text, fname)`, without copying the configuration for inline config."""
    rendered = linter.render_string(text, fname, linter.config, "utf-8")
    return linter.parse_rendered(rendered)


def lint_statement(linter: Linter, text: str, fname: str, fix: bool = False) -> LintedFile:
    """`linter.lint_string(text, fname, fix)`, with the rule pack made once for the linter."""
    return linter.lint_parsed(parse_statement(linter, text, fname), _rule_pack(linter), fix=fix, encoding="utf-8")


@lru_cache(maxsize=64)
def _rule_pack(linter: Linter) -> RulePack:
    # flinkx's rules keep no state between files (rules/flinkx_rules), so one pack serves every call
    return linter.get_rulepack(linter.config)


# sqlfluff caches a grammar's `simple()` hint (the words it can start with, which lets a
# parse skip the alternatives that cannot match) on the grammar, under the uuid of the
# parse context; every parse makes a new context with a new uuid, so every parse computes
# the hints of the whole grammar again. A hint depends on the dialect alone (a `Ref` looks
# its target up in the dialect; no `simple()` reads anything else of the context), so the
# contexts of one dialect may share one uuid: the cache then lasts for the process.
_DIALECT_UUIDS: dict[int, tuple[object, uuid.UUID]] = {}  # id(dialect) -> (the dialect, kept alive; its uuid)
_shared = False


def share_hint_cache(enabled: bool = True) -> None:
    """Give the parse contexts of one dialect one uuid (`enabled`), or a new one each as sqlfluff does."""
    global _shared
    if enabled == _shared:
        return
    ParseContext.__init__ = _shared_uuid_init if enabled else _SQLFLUFF_INIT  # type: ignore[method-assign]
    _shared = enabled


_SQLFLUFF_INIT = ParseContext.__init__


def _shared_uuid_init(self: ParseContext, dialect: object, *args: object, **kwargs: object) -> None:
    _SQLFLUFF_INIT(self, dialect, *args, **kwargs)  # type: ignore[arg-type]
    held = _DIALECT_UUIDS.get(id(dialect))
    if held is None or held[0] is not dialect:
        held = _DIALECT_UUIDS[id(dialect)] = (dialect, uuid.uuid4())
    self.uuid = held[1]
