"""Positions shared by every front-end fact."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pos:
    """1-based (line, col) in the task file."""

    line: int
    col: int


@dataclass(frozen=True)
class Span:
    """Offsets into a statement's rendered text."""

    start: int
    end: int
