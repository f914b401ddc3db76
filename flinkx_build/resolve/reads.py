"""The tables a task reads through one connector, with the options Flink runs each read with; and the
mysql-cdc readers with an explicit server-id among them, which each task's summary keeps for the
workspace check FX460 (checks/cdc_sources.py) to compare across tasks."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from flinkx_build.frontend.statements import TableRef
from flinkx_build.resolve.analysed import AnalysedTask
from flinkx_build.resolve.analysed import BoundTable
from flinkx_build.resolve.analysed import Origin
from flinkx_build.resolve.effective import hint_options
from flinkx_build.validate.standin import original_connector

# ASCII digits, few enough for int(); one run of spaces on each side of the dash, none at the ends
# (the value is stripped first): two adjacent runs of \s* made a long run of spaces quadratic
_RANGE = re.compile(r"([0-9]{1,18})(?:\s*-\s*([0-9]{1,18}))?")


def reads_of(resolved: AnalysedTask, connector: str) -> Iterator[tuple[TableRef, BoundTable, dict[str, tuple[str, Origin | None]]]]:
    """(reference, binding, option -> (value, where it was set)) for every read of a `connector`
    table: the effective definition's options, an OPTIONS hint on the reference over them."""
    for rs in resolved.statements:
        for ref, bound in zip(rs.parsed.tables, rs.tables):
            d = bound.definition
            if d is None or ref.role == "write" or original_connector(d.options) != connector:
                continue
            options: dict[str, tuple[str, Origin | None]] = {k: (v, d.origins.get(f"option:{k}")) for k, v in d.options.items()}
            options.update(hint_options(ref, resolved.task.display_path))
            yield ref, bound, options


@dataclass(frozen=True)
class CdcReader:
    task: str
    table: str
    server: str  # hostname:port as written (placeholders compare as text)
    ids: tuple[int, int]
    origin: Origin


def mysql_cdc_readers(resolved: AnalysedTask) -> list[CdcReader]:
    """Every mysql-cdc source the task reads with an explicit server-id."""
    out = []
    for _, bound, options in reads_of(resolved, "mysql-cdc"):
        value, origin = options.get("server-id", (None, None))
        ids = server_id_range(value or "")
        if ids is None or origin is None:
            continue
        server = f"{options.get('hostname', ('', None))[0]}:{options.get('port', ('3306', None))[0]}"
        out.append(CdcReader(resolved.task.key, bound.key, server, ids, origin))
    return out


def server_id_range(value: str) -> tuple[int, int] | None:
    """`5400` or `5400-5408` (spaces around the numbers and the dash allowed) -> (lowest, highest); else None."""
    m = _RANGE.fullmatch(value.strip())
    if m is None:
        return None
    lo = int(m.group(1))
    hi = int(m.group(2) or lo)
    return min(lo, hi), max(lo, hi)
