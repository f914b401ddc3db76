"""Benign single-edit mutations: edits Flink must still accept (see `mutations.py`)."""
from __future__ import annotations

from typing import Iterator

from flinkx_build.frontend import query_ir as ir
from tests.differential.mutations import Mutation
from tests.differential.mutations import TaskSites
from tests.differential.text_scan import clause_end
from tests.differential.text_scan import find_word


def benign_alias(t: TaskSites) -> Iterator[Mutation]:
    for stmt, _ in t.pairs():
        root = stmt.query.queries[stmt.query.root] if stmt.query.root >= 0 else None
        if stmt.kind != "insert" or root is None or root.kind != "select":
            continue
        for item in root.items:
            if item.alias and stmt.source.lower().count(item.alias.lower()) == 1:
                at = find_word(t.text, item.alias, t.at(item.expr.pos) if item.expr.pos else stmt.offset, stmt.offset + len(stmt.source))
                if at >= 0:
                    yield t.mutation("benign_alias", [(at, at + len(item.alias), item.alias + "_renamed")], item.alias)
                    break


def benign_filter(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        if q.where is None or q.where.pos is None:
            continue
        column = next((n for n in q.where.walk() if n.kind == ir.COLUMN), None)
        if column is not None:
            start = t.at(q.where.pos)
            yield t.mutation("benign_filter", [(start, start, f"{'.'.join(column.parts)} IS NOT NULL AND ")], "filter")


def benign_reorder(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        where = q.where
        if where is None or where.kind != ir.OPERATOR or where.text != "and" or len(where.args) != 2:
            continue
        left, right = where.args
        if left.pos is None or right.pos is None or left.pos.line != right.pos.line:
            continue
        a, b = t.at(left.pos), t.at(right.pos)
        and_at = find_word(t.text, "AND", a, b)
        b_end = clause_end(t.text, b)
        if and_at < 0 or "\n" in t.text[a:b_end]:
            continue
        first, second = t.text[a:and_at].rstrip(), t.text[b:b_end]
        yield t.mutation("benign_reorder", [(a, b_end, f"{second} AND {first}")], "conjuncts")


def benign_layout(t: TaskSites) -> Iterator[Mutation]:
    for _, q in t.selects():
        if q.items and q.items[0].pos is not None:
            at = t.at(q.items[0].pos)
            yield t.mutation("benign_layout", [(at, at, "/* a comment */   ")], "comment")
