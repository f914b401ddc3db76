"""The docs stay in step with the code."""
from pathlib import Path

from flinkx_build.errors import CODES

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_every_code_has_a_page_section():
    text = (DOCS / "error-codes.md").read_text()
    for code in CODES:
        assert f"## {code}\n" in text, code
