"""One typed way to read a value of workspace YAML: text where text is expected, or a finding.

`load_yaml` hands over plain values only (text, numbers with at most 1,000
digits, booleans, null, lists, mappings: the graph check refuses tags and
longer numbers). What a loader expects is narrower: a column's `name:` is
text, a table's `columns:` a list. `Values.text` reads a key the loader
expects to be a scalar and turns anything else into FX104 at the value's
position, so a list where a class name belongs is a finding, never the
text "['a', 'b']"; `scalar_text` is how every scalar is written as text.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.errors import Diagnostic
from flinkx_build.load.yaml_io import value_loc

# beyond this many bits Python refuses to print an int (4,300 digits); yaml_io's limit is far below it
_PRINTABLE_BITS = 14_000


def scalar_text(value: Any) -> str:
    """A scalar as text (true/false, "" for null); "" for a list or mapping, which have none."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None or isinstance(value, (dict, list)):
        return ""
    if isinstance(value, int) and value.bit_length() > _PRINTABLE_BITS:  # (refused by yaml_io already)
        return "(a number too long to print)"
    return str(value)


def kind_of(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return "text"


@dataclass
class Values:
    """Reads one YAML file's values, appending a finding for each one of the wrong kind."""

    shown: str
    diags: list[Diagnostic]
    refused: set[str] = field(default_factory=set)  # keys whose value was of the wrong kind (reported)

    def text(self, data: Any, key: str, what: str, default: str = "") -> str:
        """The scalar at `key` as text (`default` when absent or null); FX104 when it is a list or mapping."""
        value = data.get(key) if isinstance(data, dict) else None
        if value is None:
            return default
        if isinstance(value, (dict, list)):
            loc = value_loc(data, key, self.shown)
            self.diags.append(Diagnostic(self.shown, loc.line, loc.col, "FX104", f"{what} must be text, not {kind_of(value)}"))
            self.refused.add(key)
            return default
        return scalar_text(value)
