"""A project function's declared parameters (issue 44 case 6: `dim:parse_ua(ua, 1)` was silent, since a function's
YAML could not say what it takes). FX143 counts the arguments of each call without the planner; the target's
planner plans every call against the declared types through its stand-in, so lint, `build --check`, the hook, the
editor and validate say the same thing once, at the call."""
from __future__ import annotations

import pytest

from flinkx_build.lsp.analysis import Models
from flinkx_build.planner.session import open_planner
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.validate.contract import UdfStub
from tests.helpers import edited_example
from tests.helpers import one_verdict
from tests.helpers import one_verdict_planned
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars
from tests.planner.conftest import needs_planner

ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"
PARSE_UA = "projects/dim/functions/parse_ua.yaml"
CALL = "dim:parse_ua(o.user_agent)"
TOO_MANY = (f"{ENRICH}:47:3: FX143 dim:parse_ua takes 1 argument (STRING), not 2 (call it as its YAML declares "
            f"({PARSE_UA}: params), or change its params)")


def test_a_call_with_more_arguments_than_declared_is_one_error_at_the_call(cli, tmp_path):
    ws = edited_example(tmp_path, [(ENRICH, CALL, "dim:parse_ua(o.user_agent, 1)")])
    assert one_verdict(cli, ws) == [TOO_MANY]
    # the pre-commit hook lints the changed file alone; the editor analyses the buffer: the same line
    assert [line for line in cli("lint", ".", ENRICH, cwd=ws).stdout.splitlines() if " FX" in line] == [TOO_MANY]
    text = (ws / ENRICH).read_text(encoding="utf-8")
    analysis = Models(use_planner=False).analyse_task(ws / ENRICH, text)
    assert [(d.line, d.col, d.code) for d in analysis.diagnostics] == [(47, 3, "FX143")]


def test_a_call_without_arguments_is_counted_too(cli, tmp_path):
    ws = edited_example(tmp_path, [(ENRICH, CALL, "dim:parse_ua()")])
    assert one_verdict(cli, ws) == [TOO_MANY.replace("not 2", "not 0")]


def test_params_may_name_their_arguments(cli, tmp_path):
    ws = edited_example(tmp_path, [(PARSE_UA, "params: [STRING]", "params: [{name: ua, type: STRING}]"),
                                   (ENRICH, CALL, "dim:parse_ua(o.user_agent, 1)")])
    assert one_verdict(cli, ws) == [TOO_MANY]


def test_a_function_that_declares_no_params_takes_any_arguments(cli, tmp_path):
    ws = edited_example(tmp_path, [(PARSE_UA, "params: [STRING]", "# no params"),
                                   (ENRICH, CALL, "dim:parse_ua(o.user_agent, 1)")])
    assert one_verdict(cli, ws) == []


@pytest.mark.parametrize(("params", "line"), [
    ("params: STRING", f"{PARSE_UA}:6:9: FX104 'params' must be a list of the argument types (params: [STRING, INT] "
                       "(one Flink type per argument, in order))"),
    ("params: [STRNG]", f"{PARSE_UA}:6:10: FX107 'STRNG' is not a Flink data type (did you mean 'STRING'?)"),
])
def test_params_that_are_not_a_list_of_types_are_one_error_at_the_yaml(cli, tmp_path, params, line):
    ws = edited_example(tmp_path, [(PARSE_UA, "params: [STRING]", params)])
    assert one_verdict(cli, ws) == [line]


@pytest.mark.flink
@pytest.mark.network
@pytest.mark.parametrize("version", [pytest.param(v, marks=needs_planner(v)) for v in TARGETS])
def test_the_targets_planner_plans_a_call_against_the_declared_signature(jars_23, version):
    source = "CREATE TEMPORARY TABLE o (ua STRING, n INT, ts TIMESTAMP(3)) WITH ('connector' = 'kafka')"
    sink = "CREATE TEMPORARY TABLE s (x STRING) WITH ('connector' = 'print')"
    functions = ["CREATE TEMPORARY FUNCTION parse_ua AS 'com.shop.udf.ParseUserAgent' LANGUAGE JAVA",
                 "CREATE TEMPORARY FUNCTION anything AS 'com.shop.udf.Anything' LANGUAGE JAVA"]
    udfs = (UdfStub("parse_ua", "STRING", "scalar", ("STRING",)), UdfStub("anything", "STRING", "scalar"))
    calls = {"parse_ua(ua)": True, "parse_ua('Mozilla/5.0')": True, "parse_ua(NULL)": True,  # CHAR and NULL cast to STRING
             "parse_ua(ua, 1)": False, "parse_ua()": False, "parse_ua(n)": False, "parse_ua(ts)": False,
             "anything(ua, n, ts)": True, "anything()": True}
    planner = open_planner(version, fetch=False)
    try:
        verdicts = {}
        for call, _ in calls.items():
            sql = [source, sink, *functions, f"INSERT INTO s SELECT {call} FROM o"]
            statements = tuple(CompiledStatement(text, 1 + 2 * i, 1, "other", (1 + 2 * i, 1)) for i, text in enumerate(sql))
            verdicts[call] = not planner.validate(ScriptToValidate("p/calls", "t.sql", statements, udfs))
    finally:
        planner.close()
    assert verdicts == calls


@pytest.mark.flink
@pytest.mark.network
@pytest.mark.skipif(needs_planner("1.20").args[0], reason="no planner for Flink 1.20")
def test_with_the_planner_a_wrong_count_is_still_one_line_and_a_wrong_type_is_said_at_the_call(jars_23, tmp_path):
    too_many = edited_example(tmp_path / "count", [(ENRICH, CALL, "dim:parse_ua(o.user_agent, 1)")])
    assert one_verdict_planned(too_many) == [TOO_MANY]  # the task is not planned: no FX301 beside it
    wrong_type = edited_example(tmp_path / "type", [(ENRICH, CALL, "dim:parse_ua(o.quantity)")])
    assert one_verdict_planned(wrong_type) == [
        f"{ENRICH}:47:3: FX301 parse_ua cannot take (INT): it takes parse_ua(STRING) (CAST each argument to the type its "
        "signature names (a project function's signature is the params of its YAML))"]
