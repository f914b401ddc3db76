"""type_text.bracket_span: where a type's first bracket opens and closes, quotes skipped."""
from __future__ import annotations

import pytest

from flinkx_build.type_text import bracket_span


@pytest.mark.parametrize("text, span", [
    ("TIMESTAMP(3) WITH LOCAL TIME ZONE", (9, 11)),
    ("ROW<a ROW<b INT>> NOT NULL", (3, 16)),
    ("ROW<`a>` INT>", (3, 12)),
    ("INT 'a (comment)'", None),
    ("ROW<a INT", None),
    ("ROW<a INT)", None),
    ("STRING", None),
])
def test_bracket_span(text, span):
    assert bracket_span(text) == span
