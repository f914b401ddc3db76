"""Hints that name the fix for a function call Flink does not know (issue 44 case 9): another database's function
(`NVL`) names Flink's way to write it, and a project function called under the wrong project names the project that
has it. The table of other databases' functions is held to every target's planner: none of its names is a function
there, and each Flink form it names plans."""
from __future__ import annotations

import pytest

from flinkx_build.flink_data import builtin_functions
from flinkx_build.planner.session import open_planner
from flinkx_build.resolve.names import OTHER_DATABASES_FUNCTIONS
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from tests.helpers import edited_example
from tests.helpers import one_verdict
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"
CALL = "dim:parse_ua(o.user_agent)"
# the other database's call, and the Flink form the hint names written for the probe table below
CALLS = {"NVL": ("NVL(s, 'x')", "COALESCE(s, 'x')"), "NVL2": ("NVL2(s, 'a', 'b')", "IF(s IS NOT NULL, 'a', 'b')"),
         "GETDATE": ("GETDATE()", "NOW()"), "SYSDATE": ("SYSDATE()", "CURRENT_TIMESTAMP"), "LEN": ("LEN(s)", "CHAR_LENGTH(s)"),
         "DATEDIFF": ("DATEDIFF(ts, ts)", "TIMESTAMPDIFF(DAY, ts, ts)"),
         "DATE_ADD": ("DATE_ADD(ts, 1)", "TIMESTAMPADD(DAY, 1, ts)"), "DATE_SUB": ("DATE_SUB(ts, 1)", "TIMESTAMPADD(DAY, -1, ts)"),
         "GROUP_CONCAT": ("GROUP_CONCAT(s)", "LISTAGG(s, ',')"), "WM_CONCAT": ("WM_CONCAT(s)", "LISTAGG(s, ',')"),
         "STRING_AGG": ("STRING_AGG(s, ',')", "LISTAGG(s, ',')"), "TO_CHAR": ("TO_CHAR(ts)", "DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm:ss')")}


def test_nvl_names_coalesce_and_ifnull(cli, tmp_path):
    ws = edited_example(tmp_path, [(ENRICH, CALL, "NVL(o.user_agent, 'unknown')")])
    assert one_verdict(cli, ws) == [
        f"{ENRICH}:47:3: FX141 unknown function 'NVL': not a task function, a function of project 'dwd' nor a Flink built-in "
        "(Flink writes it COALESCE(x, default) or IFNULL(x, default))"]


def test_a_project_function_under_the_wrong_project_names_the_project_that_has_it(cli, tmp_path):
    ws = edited_example(tmp_path, [(ENRICH, CALL, "ods:parse_ua(o.user_agent)")])
    assert one_verdict(cli, ws) == [
        f"{ENRICH}:47:3: FX140 function 'parse_ua' not found in project 'ods' (did you mean 'dim:parse_ua'?)"]


def test_every_function_of_the_table_has_a_call_here():
    assert set(CALLS) == set(OTHER_DATABASES_FUNCTIONS)


@pytest.mark.flink
@pytest.mark.network
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_planner(v)) for v in TARGETS])
def test_the_target_rejects_each_name_and_plans_the_form_the_hint_names(jars_23, version):
    assert not set(OTHER_DATABASES_FUNCTIONS) & builtin_functions(version)
    probe = "CREATE TEMPORARY TABLE o (s STRING, ts TIMESTAMP(3)) WITH ('connector' = 'kafka')"
    planner = open_planner(version, fetch=False)
    try:
        def accepted(call: str) -> bool:
            sql = [probe, f"SELECT {call} FROM o"]
            statements = tuple(CompiledStatement(text, 1 + 2 * i, 1, "other", (1 + 2 * i, 1)) for i, text in enumerate(sql))
            return not planner.validate(ScriptToValidate("p/calls", "t.sql", statements))
        verdicts = {name: (accepted(theirs), accepted(flinks)) for name, (theirs, flinks) in CALLS.items()}
    finally:
        planner.close()
    assert verdicts == {name: (False, True) for name in CALLS}
