"""FX401 (checks/columns.py) as issue 44 asks it: one finding per wrong name, and a hint that names the fix."""
from __future__ import annotations

from tests.helpers import edited_example
from tests.helpers import one_verdict

ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"


def test_a_forgotten_proctime_set_is_one_finding_that_names_the_set(cli, tmp_path):
    # case 9: the hint was "did you mean 'product_id'?", twice (both lookup joins read o.proc_time)
    ws = edited_example(tmp_path, [(ENRICH, "SET ods.kafka_orders.procTime = proc_time AS PROCTIME();\n", "")])
    assert one_verdict(cli, ws) == [
        f"{ENRICH}:53:57: FX401 unknown column 'o.proc_time' in o, also used on line 55 (a lookup join needs a "
        "processing-time column on the probe side: declare it with SET ods.kafka_orders.procTime = proc_time AS PROCTIME();)"]


def test_a_misspelt_column_used_twice_is_one_finding_with_the_column_meant(cli, tmp_path):
    ws = edited_example(tmp_path, [(ENRICH, "ON o.user_id = u.user_id", "ON o.usr_id = u.user_id"),
                                   (ENRICH, "  o.user_id,\n", "  o.usr_id,\n")])
    assert one_verdict(cli, ws) == [
        f"{ENRICH}:32:3: FX401 unknown column 'o.usr_id' in o, also used on line 55 (did you mean 'user_id'?)"]
