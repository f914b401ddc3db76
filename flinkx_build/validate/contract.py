"""What the validator receives and returns: plain data, no Java types.

The builder turns each compiled task into a `ScriptToValidate`; the engine
(the planner driver, `flinkx_build.planner`) runs it through the real Flink planner and
answers with `FlinkFinding`s in compiled-script coordinates. The command maps
those back to the task file through `CompiledStatement.origin`.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field


@dataclass(frozen=True)
class UdfStub:
    """A function the script registers; validated through a stand-in."""

    name: str  # the name the compiled SQL calls it by
    returns: str  # a Flink type, e.g. "STRING", "ROW<a INT, b STRING>"
    kind: str = "scalar"  # scalar | table | aggregate
    params: tuple[str, ...] | None = None  # the declared argument types (the function's YAML `params`); None: any

    def wire(self) -> dict[str, object]:
        """How the planner driver receives it (every request that registers a stand-in function)."""
        out: dict[str, object] = {"name": self.name, "returns": self.returns, "kind": self.kind}
        if self.params is not None:
            out["params"] = list(self.params)
        return out


@dataclass(frozen=True)
class CompiledStatement:
    """One statement of a compiled script.

    kind is one of: create_table, create_view, create_function, insert,
    select, set, begin_statement_set, end, other.
    """

    text: str  # the statement without its trailing ';'
    line: int  # 1-based line of the statement's first character in the compiled file
    col: int  # 1-based column of that character
    kind: str
    # where the statement came from in the task file: (line, col) of its first
    # character, or None for generated DDL
    origin: tuple[int, int] | None = None
    # the statement as rendered from the task (before Dataphin names became Flink names), and each
    # rewrite as (compiled start, compiled end, source start, source end) offsets, ascending: how a
    # position Flink gives in `text` goes back to the task (validate/positions.py)
    source_text: str = field(default="", compare=False)
    source_map: tuple[tuple[int, int, int, int], ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class ScriptToValidate:
    key: str  # e.g. "dws/agg/order_stats"
    compiled_path: str  # path of the compiled file, for messages
    statements: tuple[CompiledStatement, ...]
    udfs: tuple[UdfStub, ...] = ()
    mode: str = "stream"  # stream | batch


@dataclass(frozen=True)
class FlinkFinding:
    key: str
    line: int  # 1-based, in the compiled file
    col: int
    message: str  # Flink's message, first meaningful line
    phase: str  # "syntax" | "semantic"
    statement_index: int = -1
    extra: dict = field(default_factory=dict, compare=False)
