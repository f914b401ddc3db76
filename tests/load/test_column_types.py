"""A column type the loader refuses says how to fix it (issue 44 case 9): one line, the fix named."""
from __future__ import annotations

from tests.helpers import edited_example
from tests.helpers import one_verdict


def test_an_unquoted_decimal_in_a_flow_mapping_is_one_finding_that_says_quote_it(cli, tmp_path):
    # YAML ends the value at ", ": the type 'DECIMAL(10' and a key '2)' (FX107 + FX103, and FX301 with the planner)
    table = "projects/ods/tables/kafka_orders.yaml"
    ws = edited_example(tmp_path, [(table, 'type: "DECIMAL(10, 2)"', "type: DECIMAL(10, 2)")])
    assert one_verdict(cli, ws) == [
        f"{table}:12:30: FX107 the type 'DECIMAL(10, 2)' is cut at its comma by YAML's {{...}} (quote it: type: \"DECIMAL(10, 2)\")"]


def test_mysqls_datetime_names_flinks_timestamp_not_the_nearest_spelling(cli, tmp_path):
    table = "projects/ods/tables/users.yaml"
    ws = edited_example(tmp_path, [(table, '{name: register_time, type: "TIMESTAMP(3)"}', "{name: register_time, type: DATETIME}")])
    assert one_verdict(cli, ws) == [
        f"{table}:12:33: FX107 'DATETIME' is not a Flink data type (write TIMESTAMP(3), Flink's type for DATETIME)"]
