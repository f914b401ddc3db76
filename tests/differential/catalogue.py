"""Every generator of the differential harness, and the mutations of one task."""
from __future__ import annotations

from typing import Callable
from typing import Iterator

from tests.differential import benign
from tests.differential import mistakes
from tests.differential.mutations import Mutation
from tests.differential.mutations import TaskSites

GENERATORS: dict[str, Callable[[TaskSites], Iterator[Mutation]]] = {
    "group_by_missing": mistakes.group_by_missing, "having_not_grouped": mistakes.having_not_grouped,
    "aggregate_in_where": mistakes.aggregate_in_where, "cast_bad_type": mistakes.cast_bad_type,
    "string_for_number": mistakes.string_for_number, "extra_argument": mistakes.extra_argument,
    "window_arity": mistakes.window_arity, "window_time_not_time": mistakes.window_time_not_time,
    "system_time": mistakes.system_time_operand, "lookup_key_type": mistakes.lookup_key_type,
    "row_field_misspelled": mistakes.row_field_misspelled, "computed_misspelled": mistakes.computed_misspelled,
    "hint_argument": mistakes.hint_argument, "union_short": mistakes.union_short, "insert_columns": mistakes.insert_columns,
    "match_descending": mistakes.match_descending, "order_by_not_time": mistakes.order_by_not_time,
    "benign_alias": benign.benign_alias, "benign_filter": benign.benign_filter, "benign_reorder": benign.benign_reorder,
    "benign_layout": benign.benign_layout,
}


def mutations_of(t: TaskSites) -> list[Mutation]:
    out: list[Mutation] = []
    for generator in GENERATORS.values():
        try:
            out.extend(generator(t))
        except (ValueError, IndexError):  # a site the text scanners could not read: no mutation there
            continue
    seen: set[tuple] = set()
    return [m for m in out if not (m.edits in seen or seen.add(m.edits))]
