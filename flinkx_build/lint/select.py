"""`--select` / `--ignore`: which codes a lint or fix run reports, by prefix (as ruff does).

`FX1` selects FX100-FX199 (and FX1, had it existed); the more specific of a
matching select and ignore wins, and an ignore wins a tie, so
`--select FX1 --ignore FX106` is FX1xx but FX106, and
`--ignore FX1 --select FX106` is FX106 alone.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from flinkx_build.errors import CODES
from flinkx_build.errors import UsageError
from flinkx_build.errors import did_you_mean


def parse_codes(values: Iterable[str], option: str) -> tuple[str, ...]:
    """Repeated and comma-separated selectors, upper-cased; each must match a known code."""
    out: list[str] = []
    for value in values:
        for part in value.split(","):
            code = part.strip().upper()
            if not code:
                continue
            if code != "ALL" and not any(known.startswith(code) for known in CODES):
                hint = did_you_mean(code, CODES)
                raise UsageError(f"{option} {part.strip()}: no code starts with '{code}'" + (f" ({hint})" if hint else " (see docs/error-codes.md)"))
            out.append("" if code == "ALL" else code)
    return tuple(out)


@dataclass(frozen=True)
class CodeFilter:
    select: tuple[str, ...] = ()  # empty: every code
    ignore: tuple[str, ...] = ()

    def keeps(self, code: str) -> bool:
        code = code.upper()
        chosen = max((len(p) for p in self.select if code.startswith(p)), default=-1) if self.select else 0
        dropped = max((len(p) for p in self.ignore if code.startswith(p)), default=-1)
        return chosen > dropped

    @property
    def everything(self) -> bool:
        return not self.select and not self.ignore


EVERY_CODE = CodeFilter()
