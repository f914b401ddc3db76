"""Generated meta-table column edits over a copy of the example workspace.

Each edit renames, retypes (widening, narrowing, another family), drops or adds one
column of one meta table, by editing its YAML line: the kind of change a pull request
makes. Shared by the semantic agreement test and the impact tests.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

TABLES = (
    "ods/tables/kafka_orders.yaml", "ods/tables/kafka_refunds.yaml", "dwd/tables/dwd_orders.yaml",
    "dwd/tables/dwd_refunds.yaml", "dim/tables/dim_product.yaml", "dim/tables/dim_user.yaml",
    "dws/tables/dws_order_stats_1m.yaml", "dws/tables/dws_category_gmv_1d.yaml", "dws/tables/dws_user_order_stats.yaml",
)
_COLUMN = re.compile(r"^(?P<indent>\s*- \{name: )(?P<name>\w+), type: (?P<type>\"[^\"]+\"|[A-Z_0-9]+)(?P<rest>.*)$")
# a retype for each type family: the other way round is the next edit
RETYPES = {
    "INT": "BIGINT", "BIGINT": "INT", "STRING": "BIGINT", "DOUBLE": '"DECIMAL(10, 2)"',
    "TIMESTAMP(3)": "STRING", "TIMESTAMP_LTZ(3)": '"TIMESTAMP(3)"',
}


@dataclass(frozen=True)
class ColumnEdit:
    table: str  # path under projects/
    column: str
    kind: str  # rename | retype | drop | add
    new_type: str = ""

    @property
    def label(self) -> str:
        extra = f" -> {self.new_type}" if self.new_type else ""
        return f"{self.kind} {self.table.split('/')[0]}.{Path(self.table).stem}.{self.column}{extra}"

    def apply(self, root: Path) -> None:
        path = root / "projects" / self.table
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            m = _COLUMN.match(line)
            if not m or m.group("name") != self.column:
                continue
            if self.kind == "rename":
                lines[i] = f"{m.group('indent')}{self.column}_renamed, type: {m.group('type')}{m.group('rest')}"
            elif self.kind == "retype":
                lines[i] = f"{m.group('indent')}{self.column}, type: {self.new_type}{m.group('rest')}"
            elif self.kind == "drop":
                del lines[i]
            else:
                lines.insert(i + 1, f"{m.group('indent')}added_col, type: STRING}}")
            break
        path.write_text("\n".join(lines), encoding="utf-8")


def _type_key(written: str) -> str:
    text = written.strip('"')
    return "DECIMAL" if text.startswith("DECIMAL") else text


def generate(root: Path, per_table: int = 4) -> list[ColumnEdit]:
    """Edits for the first `per_table` columns of each table, cycling through the kinds."""
    kinds = ("rename", "retype", "drop", "add")
    edits = []
    for n, table in enumerate(TABLES):
        text = (root / "projects" / table).read_text(encoding="utf-8")
        columns = [m for m in map(_COLUMN.match, text.split("\n")) if m]
        for i, m in enumerate(columns[:per_table]):
            kind = kinds[(n + i) % len(kinds)]
            if kind == "retype":
                key = _type_key(m.group("type"))
                new = '"DECIMAL(38, 10)"' if key == "DECIMAL" and i % 2 else ("DOUBLE" if key == "DECIMAL" else RETYPES.get(key, "STRING"))
                edits.append(ColumnEdit(table, m.group("name"), kind, new))
            else:
                edits.append(ColumnEdit(table, m.group("name"), kind))
    return edits
