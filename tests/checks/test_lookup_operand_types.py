"""FX442 against the real planners: every pair of kinds of type it reports on a lookup key, each target rejects,
either way round (issue 44 case 13: TIMESTAMP = BIGINT was only FX301); and the example's mistakes are one line."""
from __future__ import annotations

import pytest

from flinkx_build.checks.lookup_operands import _clash
from flinkx_build.flink_types import parse_type
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.helpers import edited_example
from tests.helpers import one_verdict
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner
from tests.planner.conftest import planners  # noqa: F401 - the module fixture: every target's planner

TYPES = {"i": "INT", "b": "BIGINT", "d": "DOUBLE", "m": "DECIMAL(10, 2)", "s": "STRING", "ts": "TIMESTAMP(3)", "dt": "DATE",
         "bo": "BOOLEAN", "by": "BYTES", "tm": "TIME", "ltz": "TIMESTAMP_LTZ(3)"}
COLUMNS = ", ".join(f"c_{k} {v}" for k, v in TYPES.items())
PROBE = f"CREATE TEMPORARY TABLE o ({COLUMNS}, pt AS PROCTIME()) WITH ('connector' = 'kafka')"
DIM = f"CREATE TEMPORARY TABLE d ({COLUMNS}, PRIMARY KEY (c_i) NOT ENFORCED) WITH ('connector' = 'jdbc')"
SINK = "CREATE TEMPORARY TABLE s (x INT) WITH ('connector' = 'print')"
PAIRS = [(a, b) for a in TYPES for b in TYPES if a != b]
ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"


@pytest.mark.flink
@pytest.mark.network
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_planner(v)) for v in TARGETS])
def test_every_pair_fx442_reports_the_target_rejects(planners, version):
    reported = [(a, b) for a, b in PAIRS if _clash(parse_type(TYPES[a]), parse_type(TYPES[b]))]
    assert len(reported) > 70  # every cross pair of kinds; numbers of other widths are not judged
    accepted = []
    for a, b in reported:
        sql = f"INSERT INTO s SELECT o.c_i FROM o JOIN d FOR SYSTEM_TIME AS OF o.pt ON o.c_{a} = d.c_{b}"
        statements = tuple(CompiledStatement(text, 1 + 2 * i, 1, "other", (1 + 2 * i, 1)) for i, text in enumerate([PROBE, DIM, SINK, sql]))
        if not planners[version].validate(ScriptToValidate(f"p/{a}_{b}", "t.sql", statements)):
            accepted.append((TYPES[a], TYPES[b]))
    assert accepted == []  # a false alarm is the worst bug


def test_a_lookup_key_of_a_timestamp_and_a_number_is_fx442(cli, tmp_path):
    ws = edited_example(tmp_path, [(ENRICH, "ON o.product_id = p.product_id", "ON o.order_time = p.product_id")])
    assert one_verdict(cli, ws) == [
        f"{ENRICH}:57:6: FX442 the lookup key o.order_time = p.product_id compares TIMESTAMP(3) with BIGINT: Flink cannot "
        "compare the two on a join's condition (CAST the probe side to the dimension column's type)"]


def test_a_wrong_lookup_key_column_is_one_finding_not_a_missing_key_too(cli, tmp_path):
    # u.phone for u.user_id: FX442 (the types) and FX441 (phone is no key) were two lines for one mistake
    ws = edited_example(tmp_path, [(ENRICH, "ON o.user_id = u.user_id", "ON o.user_id = u.phone")])
    assert [line.split(": ", 2)[1] for line in one_verdict(cli, ws)] == ["FX442 the lookup key o.user_id = u.phone compares BIGINT with STRING"]
