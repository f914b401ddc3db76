"""FX02 from the build too (issue 44 case 1): a double-quoted SET or hint value, `${var}` inside or not,
is one line at the token in lint and `build --check` alike, never compiled as `'"value"'`."""
from __future__ import annotations

import pytest

from tests.helpers import edited_example
from tests.helpers import one_verdict

STATS = "projects/dws/tasks/order_stats_1m.sql"
PEEK = "projects/ods/tasks/debug/peek_order_events.sql"


@pytest.mark.parametrize("written, expected", [
    ('"dws_order_stats_1m_${env}"', f"{STATS}:9:44: FX02 SET value \"dws_order_stats_1m_${{env}}\" must be a single-quoted string: 'dws_order_stats_1m_${{env}}'."),
    ('"2"', f"{STATS}:9:44: FX02 SET value \"2\" must be a single-quoted string: '2'."),
])
def test_a_double_quoted_set_value_is_one_error_in_lint_and_build(cli, tmp_path, written, expected):
    ws = edited_example(tmp_path, [(STATS, "= 'dws_order_stats_1m_${env}'", f"= {written}")])
    assert one_verdict(cli, ws) == [expected]


def test_a_double_quoted_hint_value_with_a_variable_is_one_error_in_lint_and_build(cli, tmp_path):
    ws = edited_example(tmp_path, [(PEEK, "OPTIONS('scan.startup.mode' = 'latest-offset')",
                                    "OPTIONS('properties.group.id' = \"peek_${env}\")")])
    assert one_verdict(cli, ws) == [
        f"{PEEK}:36:55: FX02 hint value \"peek_${{env}}\" must be a single-quoted string: 'peek_${{env}}'."]


def test_a_quoted_watermark_and_single_quoted_values_are_not_fx02(cli, tmp_path):
    ws = edited_example(tmp_path, [])
    assert one_verdict(cli, ws) == []
