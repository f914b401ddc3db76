"""Small pure helpers of the FX rules."""
import pytest
from flinkx_rules.rules.FX02 import option_text
from flinkx_rules.rules.FX02 import single_quoted
from flinkx_rules.rules.FX03 import parse_version
from flinkx_rules.rules.FX03 import quote
from flinkx_rules.rules.FX03 import unquote


@pytest.mark.parametrize(
    "value, expected",
    [(3.7, (3, 7)), ("3.6", (3, 6)), ("v3.10", (3, 10)), ("3.10.0", (3, 10, 0)), (4, (4,))],
)
def test_parse_version(value, expected):
    assert parse_version(value) == expected


def test_parse_version_rejects_junk():
    with pytest.raises(ValueError, match="dataphin_version"):
        parse_version("3.7 # a comment")


def test_quote_round_trip():
    text = "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND"
    assert quote(text) == "'WATERMARK FOR ts AS ts - INTERVAL ''5'' SECOND'"
    assert unquote(quote(text)) == text
    assert unquote(r"'it\'s'") == "it's"


def test_single_quoted_literal_has_lexer_types():
    seg = single_quoted("a'b")
    assert seg.raw == "'a''b'"
    assert seg.is_type("quoted_literal") and seg.is_type("single_quote")
    assert option_text([seg]) == "'a''b'"  # already a literal: kept as written
