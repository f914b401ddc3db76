"""Single-edit mutations of a task, found from its query structure (issue 28, item 5).

Each generator reads one task (its text, the parsed statements' query structure and the
semantic model) and yields every site where its kind of mistake can be made. A mutation never
adds or removes a line, so the mutated line is the line of the edit in both texts. The kinds
are those of the issue (`mistakes.py`); names starting with `benign_` are edits Flink must still
accept (`benign.py`); `catalogue.py` lists them all.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Iterator

from flinkx_build.frontend import query_ir as ir
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.resolve.analysed import AnalysedStatement
from flinkx_build.resolve.analysed import AnalysedTask
from tests.differential.text_scan import line_of
from tests.differential.text_scan import offset_of
from tests.differential.text_scan import reference_end



@dataclass(frozen=True)
class Mutation:
    kind: str
    task: str  # the task's key
    edits: tuple[tuple[int, int, str], ...]  # (start, end, replacement) offsets in the original text
    line: int  # the line the mistake is on
    note: str

    @property
    def benign(self) -> bool:
        return self.kind.startswith("benign_")

    def apply(self, text: str) -> str:
        for start, end, new in sorted(self.edits, reverse=True):
            text = text[:start] + new + text[end:]
        return text

    def site(self) -> str:
        return f"{self.task}:{self.line}:{self.edits[0][0]}:{self.note}"


@dataclass
class TaskSites:
    key: str
    text: str
    statements: list[ParsedStatement]
    analysed: AnalysedTask

    def at(self, pos: ir.Pos) -> int:
        return offset_of(self.text, pos.line, pos.col)

    def mutation(self, kind: str, edits: list[tuple[int, int, str]], note: str) -> Mutation:
        return Mutation(kind, self.key, tuple(edits), line_of(self.text, edits[0][0]), note)

    def pairs(self) -> Iterator[tuple[ParsedStatement, AnalysedStatement | None]]:
        by_index = {sm.index: sm for sm in self.analysed.statements}
        for stmt in self.statements:
            if stmt.query is not None:
                yield stmt, by_index.get(stmt.index)

    def selects(self) -> Iterator[tuple[ParsedStatement, ir.Query]]:
        for stmt, _ in self.pairs():
            for q in stmt.query.queries:
                if q.kind == "select":
                    yield stmt, q

    def ref_span(self, expr: ir.Expr) -> tuple[int, int] | None:
        """(start, end) of a plain column reference as written, None if the text does not match."""
        if expr.kind != ir.COLUMN or expr.pos is None:
            return None
        start = self.at(expr.pos)
        end = reference_end(self.text, start)
        written = self.text[start:end].replace("`", "").lower()
        return (start, end) if written == ".".join(expr.parts).lower() else None


def name_of(expr: ir.Expr) -> str:
    return expr.parts[-1].lower() if expr.kind == ir.COLUMN and expr.parts else ""


def misspell(name: str) -> str:
    return name[:-1] if len(name) > 3 else name + "x"


def held_out(mutation: Mutation, seed: int) -> bool:
    """The split: a site is tuned or held-out by a hash of the seed and the site, not by kind."""
    digest = hashlib.sha256(f"{seed}|{mutation.kind}|{mutation.site()}".encode()).digest()
    return digest[0] % 2 == 1

