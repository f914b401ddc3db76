"""Return types of Flink's built-in functions.

A function whose type does not depend on its arguments' types has it in the target version's
generated facts (`return_types`, asked of the version's planner by scripts/gen_flink_facts.py).
What stays here are the rules of the functions whose type follows their arguments: the first
argument's (`_LIKE_ARGUMENT`), the arguments' common type (`_COMMON`), SUM and AVG's widening,
CAST's target. Any other function's type is unknown (no check relies on it).
"""
from __future__ import annotations

from flinkx_build.flink_data import aggregates_of_any_version
from flinkx_build.flink_data import facts_or_default
from flinkx_build.flink_data import over_only_of_any_version
from flinkx_build.flink_types import FlinkType
from flinkx_build.flink_types import common_type
from flinkx_build.flink_types import parse_type

# Flink's aggregate functions, and those that read rows around the current one (only over a
# window): from the planner's operator table of every supported version (flink_data)
AGGREGATES = aggregates_of_any_version()
WINDOW_ONLY = over_only_of_any_version()

_LIKE_ARGUMENT = frozenset({"MIN", "MAX", "ABS", "FIRST_VALUE", "LAST_VALUE", "FLOOR", "CEIL", "CEILING", "LEAD", "LAG"})
_COMMON = frozenset({"COALESCE", "IFNULL", "NULLIF", "GREATEST", "LEAST"})


def call_type(name: str, args: list[FlinkType | None], type_text: str = "", flink_version: str | None = None) -> FlinkType | None:
    """The result type of built-in `name` over arguments of types `args` on the workspace's Flink version."""
    if name in ("CAST", "TRY_CAST"):
        result = parse_type(type_text)
        if result is None:
            return None
        nullable = name == "TRY_CAST" or (args[0].nullable if args and args[0] is not None else True)
        return result.with_nullable(nullable)
    if name == "PROCTIME":
        return FlinkType("TIMESTAMP_LTZ", (3,), False, time_attribute="proctime")
    fixed = facts_or_default(flink_version).return_types.get(name)
    if fixed is not None:
        return parse_type(fixed)
    first = args[0] if args else None
    if name in _LIKE_ARGUMENT:
        return first
    if name in _COMMON:
        out = common_type(args)
        if out is not None and name == "COALESCE":
            return out.with_nullable(all(a is None or a.nullable for a in args))
        return out
    if name == "IF" and len(args) == 3:
        return common_type(args[1:])
    if name == "SUM":
        return _sum(first)
    if name == "AVG":
        return _avg(first)
    if name == "ROUND" and first is not None and first.numeric:
        return first
    return None


def _sum(arg: FlinkType | None) -> FlinkType | None:
    if arg is None or not arg.numeric:
        return None
    if arg.root == "DECIMAL":
        return FlinkType("DECIMAL", (38, arg.precision_scale()[1]))
    return FlinkType(arg.root)


def _avg(arg: FlinkType | None) -> FlinkType | None:
    if arg is None or not arg.numeric:
        return None
    if arg.root == "DECIMAL":
        p, s = arg.precision_scale()
        return FlinkType("DECIMAL", (38, max(6, s)))
    return FlinkType(arg.root)
