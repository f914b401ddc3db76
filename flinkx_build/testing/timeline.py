"""A case's timeline bound to its task: steps with table keys, typed rows and times in epoch milliseconds.

A timeline interleaves rows per source, watermark steps, a source going idle and coming back,
processing-time advances and expectations at a point (docs/testing.md#timelines). Everything a
user can get wrong is found here, before any JVM starts, as one FX5xx line at the step: a table the
task does not read (FX502) or write (FX503), a watermark on a source without a WATERMARK or a
timeline in batch mode (FX511), a time that is not a timestamp or goes backwards (FX512).
"""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from dataclasses import field
from typing import Callable

from flinkx_build.errors import Diagnostic
from flinkx_build.testing.fixtures import RawStep
from flinkx_build.testing.fixtures import RawTable
from flinkx_build.testing.values import FlinkType
from flinkx_build.testing.values import convert
from flinkx_build.workspace_model import Loc

EVERY_SOURCE = ""  # a watermark step without a source name: every source that has a watermark
_TIME = FlinkType("TIMESTAMP", (3,))


@dataclass
class BoundStep:
    kind: str  # rows | watermark | idle | active | proctime | expect | state_keys
    loc: Loc
    given: list = field(default_factory=list)  # BoundTable of a rows step
    expect: list = field(default_factory=list)  # BoundTable of an expect step
    watermarks: dict[str, int] = field(default_factory=dict)  # table key (EVERY_SOURCE: all) -> epoch ms
    sources: list[str] = field(default_factory=list)  # idle / active: table keys
    proctime: int | None = None  # epoch ms
    keys: list[tuple[str, int, Loc]] = field(default_factory=list)  # state_keys: (operator, keys held, where)


# (entry, section) -> the table's info, or None after reporting FX502/FX503
TableLookup = Callable[[RawTable, str], object | None]
# (rows, info, section) -> bound table; reports FX504-FX506
TableBinder = Callable[[RawTable, object, str], object]


def _error(diags: list[Diagnostic], loc: Loc, code: str, message: str, hint: str = "") -> None:
    diags.append(Diagnostic(loc.path, loc.line, loc.col, code, message, hint))


def epoch_ms(raw: object) -> int:
    """A timeline time (`"2026-01-01 10:00:00[.fff]"`, read as UTC like every fixture timestamp) in ms;
    ValueError when it is not one."""
    try:
        value = convert(raw, _TIME)
    except (ValueError, TypeError):
        value = None
    if value is None:
        raise ValueError(f"time '{raw}' is not a timestamp")
    return calendar.timegm(value.timetuple()) * 1000 + value.microsecond // 1000


def bind_timeline(steps: list[RawStep], mode: str, lookup: TableLookup, bind_table: TableBinder,
                  watermarked: set[str], key_of: Callable[[object], str],
                  diags: list[Diagnostic]) -> list[BoundStep]:
    """The steps with tables resolved and times checked. `watermarked`: keys of the sources whose DDL in
    this task has a WATERMARK (a watermark step on another source could not move anything)."""
    if steps and mode == "batch":
        _error(diags, steps[0].loc, "FX511", "a timeline needs a stream task: batch mode has no watermarks "
               "or processing time", "remove 'mode: batch' or the timeline")
        return []
    bound: list[BoundStep] = []
    last_watermark: dict[str, tuple[int, Loc]] = {}
    last_proctime: tuple[int, Loc] | None = None
    for raw in steps:
        step = BoundStep(raw.kind, raw.loc)
        if raw.kind in ("rows", "expect"):
            section = "given" if raw.kind == "rows" else "expect"
            for entry in raw.tables:
                info = lookup(entry, section)
                if info is not None:
                    (step.given if raw.kind == "rows" else step.expect).append(bind_table(entry, info, section))
        elif raw.kind == "state_keys":  # operators are Flink's: known only once the job runs (compare.py)
            step.keys = list(raw.keys)
        elif raw.kind in ("idle", "active"):
            for name, loc in raw.sources:
                info = lookup(RawTable(name, loc, "rows"), "given")
                if info is not None:
                    step.sources.append(key_of(info))
        else:
            for name, value, loc in raw.times:
                try:
                    millis = epoch_ms(value)
                except ValueError as exc:
                    _error(diags, loc, "FX512", f"{raw.kind} {exc}", "write 'YYYY-MM-DD HH:MM:SS[.fff]', in UTC")
                    continue
                if raw.kind == "proctime":
                    if last_proctime is not None and millis < last_proctime[0]:
                        _error(diags, loc, "FX512", f"processing time goes backwards: {value} is before "
                               f"the one at line {last_proctime[1].line}",
                               "processing time only advances; reorder the steps")
                    step.proctime = millis
                    last_proctime = (millis, loc)
                    continue
                if name == EVERY_SOURCE:
                    keys = sorted(watermarked)
                    if not keys:
                        _error(diags, loc, "FX511", "no source of this task has a WATERMARK: a watermark step "
                               "cannot move event time", "declare a WATERMARK on the source table, or drop the step")
                        continue
                else:
                    info = lookup(RawTable(name, loc, "rows"), "given")
                    if info is None:
                        continue
                    if key_of(info) not in watermarked:
                        _error(diags, loc, "FX511", f"{key_of(info)} has no WATERMARK in this task: a watermark "
                               "step on it moves nothing", "declare a WATERMARK on it, or drop the step")
                        continue
                    keys = [key_of(info)]
                for key in keys:
                    before = last_watermark.get(key)
                    if before is not None and millis < before[0]:
                        _error(diags, loc, "FX512", f"the watermark of {key} goes backwards: {value} is before "
                               f"the one at line {before[1].line}", "a watermark only advances; reorder the steps")
                    last_watermark[key] = (max(millis, before[0]) if before else millis, loc)
                step.watermarks[EVERY_SOURCE if name == EVERY_SOURCE else keys[0]] = millis
        bound.append(step)
    return bound
