"""`${var}` variables: one pattern and one context, for SQL and YAML alike.

The context is `Workspace.context_for` (workspace_model.py). Task SQL is rendered by
sqlfluff's `placeholder` templater configured from `sqlfluff_templater_config()`,
so positions map back to the task file through sqlfluff's own source mapping. YAML values are rendered by `render()`, which
applies the same pattern to the same context.

Secrets are deploy-time variables: they render as themselves (`${name}`), so
compiled SQL keeps them and no value is ever printed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

# sqlfluff compiles param_regex with the `regex` module; keep it compatible.
VARIABLE_REGEX = r"\$\{(?P<param_name>[A-Za-z_][A-Za-z0-9_.]*)\}"
VARIABLE_PATTERN = re.compile(VARIABLE_REGEX)


@dataclass(frozen=True)
class VariableUse:
    name: str
    offset: int  # offset of `$` in the raw text
    known: bool
    secret: bool


def find_variables(text: str, context: dict[str, str], secrets: list[str]) -> list[VariableUse]:
    return [
        VariableUse(m.group("param_name"), m.start(), m.group("param_name") in context, m.group("param_name") in secrets)
        for m in VARIABLE_PATTERN.finditer(text)
    ]


def render(text: str, context: dict[str, str]) -> str:
    """Textual substitution; unknown names are left as written."""
    return VARIABLE_PATTERN.sub(lambda m: context.get(m.group("param_name"), m.group(0)), text)


def sqlfluff_templater_config(context: dict[str, str]) -> dict[str, str]:
    """The `[sqlfluff:templater:placeholder]` section for this context."""
    return {"param_regex": VARIABLE_REGEX, **context}
