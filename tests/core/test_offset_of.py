"""One function turns a 1-based (line, col) into an offset: validate's positions and the language server
both use it (issue 27: `validate/positions._offset` and `lsp/locate.offset_of` were two)."""
from __future__ import annotations

from flinkx_build.limits import offset_of
from flinkx_build.limits import position

TEXT = "SELECT a\nFROM t\n"


def test_a_position_and_its_offset_agree():
    for offset in range(len(TEXT)):
        assert offset_of(TEXT, *position(TEXT, offset)) == offset


def test_a_column_past_the_line_stays_on_the_line():
    assert offset_of(TEXT, 1, 99) == TEXT.index("\n")  # not into the next line


def test_a_column_before_the_line_is_its_start():
    assert offset_of(TEXT, 2, 0) == TEXT.index("FROM")  # not the end of the line before


def test_a_line_past_the_text_is_its_end():
    assert offset_of(TEXT, 9, 1) == len(TEXT)
    assert offset_of("", 1, 5) == 0
