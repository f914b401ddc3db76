"""The tables a task reads through one connector, with the options Flink runs each read with."""
from __future__ import annotations

from collections.abc import Iterator

from flinkx_build.frontend.statements import TableRef
from flinkx_build.resolve.effective import hint_options
from flinkx_build.resolve.model import BoundTable
from flinkx_build.resolve.model import Origin
from flinkx_build.resolve.model import ResolvedTask
from flinkx_build.validate.standin import original_connector


def reads_of(resolved: ResolvedTask, connector: str) -> Iterator[tuple[TableRef, BoundTable, dict[str, tuple[str, Origin | None]]]]:
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
