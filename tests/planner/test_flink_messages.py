"""FX301's translation table (compile/flink_messages.py) against the real planner of every target (issue 44 case 13).

Each example is SQL that makes a target's planner answer with one of Flink's message shapes; the table must
recognise the message each target really gives, say it with a hint, and nothing else in the table may take it
first. The targets are `targets.TARGETS`: a new target runs every example by being added there (an example whose
message differs on it names its shape in `BY_TARGET`).
"""
from __future__ import annotations

import pytest

from flinkx_build.compile.flink_messages import SHAPES
from flinkx_build.compile.flink_messages import shape_of
from flinkx_build.targets import TARGETS
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.validate.contract import UdfStub
from tests.planner.conftest import needs_planner

pytestmark = [pytest.mark.flink, pytest.mark.network, *(needs_planner(v) for v in TARGETS)]

ORDERS = ("CREATE TEMPORARY TABLE orders (order_id BIGINT, user_id BIGINT, amount DECIMAL(10, 2), name STRING, "
          "ts TIMESTAMP(3), pt AS PROCTIME(), info ROW<city STRING, zip STRING>, `value` STRING, "
          "WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'kafka')")
DIM = "CREATE TEMPORARY TABLE dim (user_id BIGINT, user_name STRING, PRIMARY KEY (user_id) NOT ENFORCED) WITH ('connector' = 'jdbc')"
SINK = "CREATE TEMPORARY TABLE sink (order_id BIGINT, name STRING) WITH ('connector' = 'print')"
APPEND = "CREATE TEMPORARY TABLE appended (user_id BIGINT, total DECIMAL(38, 2)) WITH ('connector' = 'kafka')"
TOTALS = ("CREATE TEMPORARY TABLE totals (user_id BIGINT, total DECIMAL(38, 2), PRIMARY KEY (user_id) NOT ENFORCED) "
          "WITH ('connector' = 'jdbc')")
WINDOWS = "CREATE TEMPORARY TABLE windows (s TIMESTAMP(3), c BIGINT) WITH ('connector' = 'print')"
BASE = [ORDERS, DIM, SINK]
# a project function as the stand-in takes it: the signature its YAML declares (params)
PARSE_UA = "CREATE TEMPORARY FUNCTION parse_ua AS 'com.shop.udf.ParseUserAgent' LANGUAGE JAVA"
UDFS = (UdfStub("parse_ua", "STRING", "scalar", ("STRING",)),)
INSERT = "INSERT INTO sink SELECT order_id, name FROM orders"
LOOKUP = "INSERT INTO sink SELECT o.order_id, d.user_name FROM orders AS o JOIN dim FOR SYSTEM_TIME AS OF "

# shape name -> statements whose first finding, on every target, is a message of that shape
EXAMPLES: dict[str, list[str]] = {
    "trailing comma": BASE + ["INSERT INTO sink SELECT order_id, name,\nFROM orders"],
    "keyword": ["CREATE TEMPORARY TABLE x (a DATETIME) WITH ('connector' = 'print')"],  # MySQL's type
    "encountered": BASE + [INSERT + " WHERE"],
    "lexical": BASE + [INSERT + " # comment"],
    "column in table": BASE + ["INSERT INTO sink SELECT o.order_id, o.nme FROM orders AS o"],
    "column": BASE + ["INSERT INTO sink SELECT order_id, nme FROM orders"],
    "ambiguous column": BASE + ["INSERT INTO sink SELECT o.order_id, user_name FROM orders AS o JOIN dim AS d ON user_id = d.user_id"],
    "table": BASE + ["INSERT INTO sink SELECT order_id, name FROM ordrs"],
    "sink table": BASE + ["INSERT INTO snk SELECT order_id, name FROM orders"],
    "view as sink": BASE + ["CREATE TEMPORARY VIEW v AS SELECT order_id, name FROM orders", "INSERT INTO v SELECT order_id, name FROM orders"],
    "already exists": BASE + [SINK],
    "target column": BASE + ["INSERT INTO sink (order_id, nam) SELECT order_id, name FROM orders"],
    "target twice": BASE + ["INSERT INTO sink (order_id, order_id) SELECT order_id, name FROM orders"],
    "unknown identifier": ["CREATE TEMPORARY TABLE x (a INT, b AS nosuch_column + 1) WITH ('connector' = 'print')"],
    "function signature": BASE + ["INSERT INTO sink SELECT order_id, nosuch(name) FROM orders"],
    "argument types": BASE + [PARSE_UA, "INSERT INTO sink SELECT order_id, parse_ua(order_id) FROM orders"],
    "argument count": BASE + ["INSERT INTO sink SELECT order_id, REGEXP_EXTRACT(name) FROM orders"],
    "operand types": BASE + [INSERT + " WHERE name + 1 > 2"],
    "cast": BASE + ["INSERT INTO sink SELECT order_id, CAST(CAST(ts AS BOOLEAN) AS STRING) FROM orders"],
    "values types": [SINK, "INSERT INTO sink VALUES (1, 'a'), (2)"],
    "sink column count": BASE + ["INSERT INTO sink SELECT order_id FROM orders"],
    "sink column type": BASE + ["INSERT INTO sink SELECT name, name FROM orders"],
    "update into append-only sink": [ORDERS, APPEND, "INSERT INTO appended SELECT user_id, SUM(amount) FROM orders GROUP BY user_id"],
    "statement set": BASE + ["BEGIN STATEMENT SET", "SELECT 1", "END"],
    "not grouped": BASE + ["INSERT INTO sink SELECT order_id, name FROM orders GROUP BY order_id"],
    "aggregate in clause": BASE + [INSERT + " WHERE COUNT(*) > 1"],
    "set operation columns": BASE + [INSERT + " UNION ALL SELECT order_id FROM orders"],
    "lookup time type": BASE + [LOOKUP + "o.order_id AS d ON o.user_id = d.user_id"],
    "event-time join": BASE + [LOOKUP + "o.ts AS d ON o.user_id = d.user_id"],
    "lookup key type": BASE + [LOOKUP + "o.pt AS d ON o.name = d.user_id"],
    "lookup without equality": BASE + [LOOKUP + "o.pt AS d ON o.user_id > d.user_id"],
    "join condition": BASE + ["INSERT INTO sink SELECT o.order_id, d.user_name FROM orders AS o JOIN dim AS d"],
    "streaming sort": BASE + [INSERT + " ORDER BY name"],
    "window time column": [ORDERS, WINDOWS, "INSERT INTO windows SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE orders, "
                           "DESCRIPTOR(order_id), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end"],
    "watermark type": ["CREATE TEMPORARY TABLE x (a BIGINT, WATERMARK FOR a AS a - 5) WITH ('connector' = 'print')"],
    "primary key column": ["CREATE TEMPORARY TABLE x (a INT, PRIMARY KEY (b) NOT ENFORCED) WITH ('connector' = 'print')"],
    "primary key mode": ["CREATE TEMPORARY TABLE x (a INT, PRIMARY KEY (a)) WITH ('connector' = 'print')"],
    "configuration value": BASE + ["SET 'table.exec.state.ttl' = '36 hours later'",
                                   "INSERT INTO sink SELECT order_id, LAST_VALUE(name) FROM orders GROUP BY order_id"],
}
# the target gives another shape than EXAMPLES says, for its own reason: (shape, target) -> the shape it gives
BY_TARGET: dict[tuple[str, str], str | None] = {
    ("keyword", "1.20"): "unknown identifier",  # 1.20's parser takes DATETIME as a name, then finds no such type
    ("keyword", "1.15"): "unknown type",  # 1.15's parser too, and names the node's class with it
    ("watermark type", "1.15"): "rowtime type",  # 1.15 checks the type when it plans the rowtime attribute
}
# (the upsert-key message exists on 2.3 alone: Flink 1.20 plans the example)
VERSION_ONLY: dict[str, tuple[list[str], str]] = {
    "upsert key": ([ORDERS, TOTALS, "INSERT INTO totals SELECT CAST(COUNT(*) AS BIGINT) AS user_id, SUM(amount) FROM orders "
                    "GROUP BY order_id"], "2.3"),
}
# shapes no SQL a task can write makes the stand-in planner say (a catalog, a database, a legacy message), each with
# a message Flink gave in the real-SQL corpus (tests/fixtures/corpus/*/MANIFEST.json) or another test of a real run
RECORDED: dict[str, str] = {
    "not a statement": "Non-query expression encountered in illegal context",
    "table in catalog": "Table `default_catalog`.`my_db`.`my_table` doesn't exist or is a temporary table.",
    "catalog": "A catalog with name [fluss_catalog] does not exist.",
    "database": "A database with name [fluss] does not exist in the catalog: [default_catalog].",
    "default value": "No match found for function signature DEFAULT",
    "lookup time column": "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field",
    "hint table": "The options of following hints cannot match the name of input tables or views: `px` in `LOOKUP`",
}


def _script(name: str, statements: list[str]) -> ScriptToValidate:
    compiled = tuple(CompiledStatement(sql, 1 + 3 * i, 1, "other", (1 + 3 * i, 1)) for i, sql in enumerate(statements))
    return ScriptToValidate(f"p/{name.replace(' ', '_')}", f"{name}.sql", compiled, UDFS)


def test_every_shape_has_an_example_or_a_recorded_message():
    # a shape one target alone gives is shown by the example that gives it there (BY_TARGET)
    examples = set(EXAMPLES) | set(VERSION_ONLY) | set(RECORDED) | {s for s in BY_TARGET.values() if s}
    assert {s.name for s in SHAPES} == examples
    for name, message in RECORDED.items():
        shape, groups = shape_of(message)
        assert shape.name == name and shape.words(groups).hint, message


@pytest.mark.parametrize("version", list(TARGETS))
@pytest.mark.parametrize("name", list(EXAMPLES))
def test_the_targets_message_is_said_with_its_fix(planners, version, name):
    findings = planners[version].validate(_script(name, EXAMPLES[name]))
    assert findings and not findings[0].extra.get("internal"), [f.message for f in findings]
    known = shape_of(findings[0].message)
    expected = BY_TARGET.get((name, version), name)
    assert known is not None and known[0].name == expected, (findings[0].message, known and known[0].name)
    words = known[0].words(known[1])
    assert words.message and words.hint and "--no-planner" not in words.hint


@pytest.mark.parametrize("name", list(VERSION_ONLY))
def test_a_message_of_one_target_only(planners, name):
    statements, only = VERSION_ONLY[name]
    for version, planner in planners.items():
        findings = planner.validate(_script(name, statements))
        if version != only:
            continue
        known = shape_of(findings[0].message)
        assert known is not None and known[0].name == name, findings[0].message
