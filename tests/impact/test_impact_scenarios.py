"""`flinkx impact` on real git histories: exact impacted tasks, classification and CI gate.

Every scenario runs twice: with the workspace at the repository root and in
`warehouse/flink/` of a larger repository. The change is committed, so the
base is HEAD~1 and the head is the (clean) working tree.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Callable

import pytest

from tests.graph.gitrepo import Repo

ORDERS = "projects/ods/tables/orders.yaml"
USERS = "projects/ods/tables/users.yaml"
DWD_ORDERS = "projects/dwd/tables/dwd_orders.yaml"
ENRICH = "projects/dwd/tasks/orders/enrich_orders.sql"

ENRICH_T = "task.dwd.orders/enrich_orders"
STATUS_T = "task.dwd.orders/order_status"
BIG_T = "task.dws.agg/big_orders"
LAST_T = "task.dws.user_last_order"
WATCH_T = "task.dws.status_watch"


@dataclass
class Scenario:
    name: str
    change: Callable[[Repo], None]
    changes: dict[str, str]  # node -> added | removed | modified | moved
    impacts: dict[str, tuple[str, str, str, bool]]  # node -> (project, relation, classification, cross-project)
    gates: dict[str, int]  # --fail-on -> exit code
    sources: dict[str, str] = field(default_factory=dict)  # node -> workspace-relative source of the change


def rename_column(r: Repo) -> None:
    r.edit(ORDERS, "{name: channel, type: STRING", "{name: sales_channel, type: STRING")


def add_column(r: Repo) -> None:
    r.edit(ORDERS, "  - {name: status, type: STRING}\n", "  - {name: status, type: STRING}\n  - {name: coupon_code, type: STRING}\n")


def add_column_to_written_table(r: Repo) -> None:
    r.edit(DWD_ORDERS, "  - {name: channel, type: STRING}\n", "  - {name: channel, type: STRING}\n  - {name: device, type: STRING}\n")


def remove_column_read_through_wildcard(r: Repo) -> None:
    r.edit(DWD_ORDERS, "  - {name: phone_masked, type: STRING}\n", "")


def comments_and_whitespace(r: Repo) -> None:
    r.write(ENRICH, """
        -- Enrich every order with the buyer (comment reworded).
        set ods.orders.`properties.group.id` = 'dwd_enrich_orders_${env}';
        set ods.orders.procTime = proc_time as proctime();   /* keyword case */

        insert into dwd_orders
        select o.order_id, o.user_id, u.user_name,
               ods:mask_phone(u.phone) as phone_masked,  -- masked
               u.city, o.amount, o.channel, o.order_time
          from ods.orders as o
          join ods.users for system_time as of o.proc_time as u
            on o.user_id = u.user_id;
    """)
    r.edit(ORDERS, "# Order events published by the order service.", "# Order events (YAML comments mean nothing).")
    r.edit(ORDERS, "  - {name: amount, type: \"DECIMAL(10, 2)\"}\n", "  - name: amount      # block style now\n    type: \"DECIMAL(10, 2)\"\n")


def change_variable(r: Repo) -> None:
    r.edit("flinkx.yaml", "env: prod", "env: staging")


def change_project_variable_in_locked_option(r: Repo) -> None:
    r.edit("projects/dws/project.yaml", "dws_database: shop_dws", "dws_database: shop_dws_v2")


def delete_table_in_use(r: Repo) -> None:
    r.remove("projects/dwd/tables/order_status.yaml")


def add_project(r: Repo) -> None:
    r.write("projects/ads/project.yaml", "name: ads\ndescription: Dashboards.\n")
    r.write("projects/ads/tables/channel_board.yaml", """
        name: channel_board
        type: print
        columns:
          - {name: channel, type: STRING}
          - {name: amount, type: "DECIMAL(10, 2)"}
        with: {connector: print}
    """)
    r.write("projects/ads/tasks/channel_board.sql", """
        -- Big orders on the channel dashboard.
        INSERT INTO channel_board
        SELECT channel, amount FROM dws.big_orders;
    """)


def move_table_file(r: Repo) -> None:
    r.move(USERS, "projects/ods/tables/dim/ods_users.yaml")


def retype_function(r: Repo) -> None:
    r.edit("projects/ods/functions/mask_phone.yaml", "returns: STRING", "returns: BIGINT")


def change_lookup_key(r: Repo) -> None:
    r.edit(USERS, "primary_key: [user_id]", "primary_key: [user_id, city]")


def change_cache_option(r: Repo) -> None:
    r.edit(USERS, 'lookup.partial-cache.max-rows: "10000"', 'lookup.partial-cache.max-rows: "50000"')


def key_on_a_missing_column(r: Repo) -> None:
    r.edit(USERS, "primary_key: [user_id]", "primary_key: [uid]")  # the YAML loads in part: FX151 is its one finding


def break_yaml_whole(r: Repo) -> None:
    r.edit(USERS, "primary_key: [user_id]", "primary_key: [user_id")  # not YAML: no table loads from the file


def enrich_and_downstream(classification: str) -> dict[str, tuple[str, str, str, bool]]:
    """A change of an `ods` object enrich_orders uses: it is hit directly, the two dws tasks reading its output after it."""
    return {
        ENRICH_T: ("dwd", "direct", classification, True),
        BIG_T: ("dws", "indirect", "non-breaking", True),
        LAST_T: ("dws", "indirect", "non-breaking", True),
    }


ALL_FAIL = {"breaking": 1, "cross-project": 1, "any": 1, "never": 0}
NON_BREAKING_CROSS = {"breaking": 0, "cross-project": 1, "any": 1, "never": 0}
NOTHING = {"breaking": 0, "cross-project": 0, "any": 0, "never": 0}

SCENARIOS = [
    Scenario(
        "rename a column", rename_column, {"table.ods.orders": "modified"},
        {
            ENRICH_T: ("dwd", "direct", "breaking", True),  # reads o.channel
            STATUS_T: ("dwd", "direct", "non-breaking", True),  # reads status, not channel
            BIG_T: ("dws", "indirect", "non-breaking", True),
            LAST_T: ("dws", "indirect", "non-breaking", True),
            WATCH_T: ("dws", "indirect", "non-breaking", True),
        },
        ALL_FAIL, {"table.ods.orders": ORDERS},
    ),
    Scenario(
        "add a column", add_column, {"table.ods.orders": "modified"},
        {
            ENRICH_T: ("dwd", "direct", "non-breaking", True),
            STATUS_T: ("dwd", "direct", "non-breaking", True),
            BIG_T: ("dws", "indirect", "non-breaking", True),
            LAST_T: ("dws", "indirect", "non-breaking", True),
            WATCH_T: ("dws", "indirect", "non-breaking", True),
        },
        NON_BREAKING_CROSS,
    ),
    Scenario(
        "add a column to a table a task writes", add_column_to_written_table, {"table.dwd.dwd_orders": "modified"},
        {
            ENRICH_T: ("dwd", "direct", "breaking", False),  # its INSERT no longer matches
            BIG_T: ("dws", "direct", "non-breaking", True),
            LAST_T: ("dws", "direct", "non-breaking", True),  # SELECT * in a view, not into a sink
        },
        ALL_FAIL,
    ),
    Scenario(
        "remove a column only a wildcard reads", remove_column_read_through_wildcard, {"table.dwd.dwd_orders": "modified"},
        {
            ENRICH_T: ("dwd", "direct", "breaking", False),
            BIG_T: ("dws", "direct", "non-breaking", True),  # never reads phone_masked
            # the view's SELECT * passes a different set of columns, but the INSERT reads
            # four that are all still there: Flink accepts it (it used to be called breaking)
            LAST_T: ("dws", "direct", "changes-data", True),
        },
        ALL_FAIL,
    ),
    Scenario("change only comments, whitespace and keyword case", comments_and_whitespace, {}, {}, NOTHING),
    Scenario(
        "change a variable's value", change_variable,
        {ENRICH_T: "modified", BIG_T: "modified"},  # both SET a group id with ${env}
        {
            ENRICH_T: ("dwd", "changed", "non-breaking", False),
            BIG_T: ("dws", "changed", "non-breaking", True),  # also downstream of enrich_orders
            LAST_T: ("dws", "indirect", "non-breaking", True),
        },
        NON_BREAKING_CROSS,
    ),
    Scenario(
        "change a project variable used in a locked option", change_project_variable_in_locked_option,
        {"table.dws.big_orders": "modified"},
        # a locked option's value changes where the job writes, not whether Flink accepts it
        {BIG_T: ("dws", "direct", "changes-data", False)},
        {"breaking": 0, "cross-project": 0, "any": 1, "never": 0},
    ),
    Scenario(
        "delete a table still in use", delete_table_in_use, {"table.dwd.order_status": "removed"},
        {
            STATUS_T: ("dwd", "direct", "breaking", False),  # writes it: FX130 in the head
            WATCH_T: ("dws", "direct", "breaking", True),  # reads it: FX130 in the head
        },
        ALL_FAIL,
    ),
    Scenario(
        "add a project", add_project,
        {"project.ads": "added", "table.ads.channel_board": "added", "task.ads.channel_board": "added"},
        {"task.ads.channel_board": ("ads", "changed", "non-breaking", False)},
        {"breaking": 0, "cross-project": 0, "any": 1, "never": 0},
    ),
    Scenario(
        "move a meta table file whose name: stays", move_table_file, {"table.ods.users": "moved"}, {},
        NOTHING, {"table.ods.users": f"{USERS} -> projects/ods/tables/dim/ods_users.yaml"},
    ),
    Scenario(
        "change a function's return type", retype_function, {"function.ods.mask_phone": "modified"},
        enrich_and_downstream("breaking"),
        ALL_FAIL,
    ),
    Scenario(
        "change the key of a lookup table", change_lookup_key, {"table.ods.users": "modified"},
        # the lookup still joins on user_id, now not the whole key (FX441, a warning): Flink plans it
        enrich_and_downstream("changes-data"),
        NON_BREAKING_CROSS,
    ),
    # a task naming a table whose YAML does not load says nothing of its own (the YAML's error is the one
    # finding), yet the change that broke the YAML breaks it: Flink would reject it
    Scenario(
        "key a lookup table on a column that is gone", key_on_a_missing_column, {"table.ods.users": "modified"},
        enrich_and_downstream("breaking"),
        ALL_FAIL,
    ),
    Scenario(
        "break a table's YAML", break_yaml_whole, {"table.ods.users": "removed"},
        enrich_and_downstream("breaking"),
        ALL_FAIL,
    ),
    Scenario(
        "change an unlocked option", change_cache_option, {"table.ods.users": "modified"},
        enrich_and_downstream("non-breaking"),
        NON_BREAKING_CROSS,
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scenario(shop, impact, scenario: Scenario):
    scenario.change(shop)
    shop.commit(scenario.name)

    result, data = impact(shop, "--base", "HEAD~1", "--fail-on", "never")
    assert result.exit_code == 0, result.stderr
    assert {c["node"]: c["change"] for c in data["changes"]} == scenario.changes
    got = {i["node"]: (i["project"], i["relation"], i["classification"], i["cross_project"]) for i in data["impacts"]}
    assert got == scenario.impacts
    for node, source in scenario.sources.items():
        change = next(c for c in data["changes"] if c["node"] == node)
        want = " -> ".join(shop.repo_path(s) for s in source.split(" -> "))
        assert change["source"] == want
    for impact_ in data["impacts"]:  # sources are repository-relative, as a PR shows them
        assert impact_["source"].startswith(shop.repo_path("projects/"))
    assert data["workspace"] == shop.prefix

    for gate, code in scenario.gates.items():
        result, _ = impact(shop, "--base", "HEAD~1", "--fail-on", gate, fmt="text")
        assert result.exit_code == code, (gate, result.stdout)


def test_default_gate_is_breaking(shop_root, impact):
    rename_column(shop_root)  # uncommitted: the head is the working tree
    result, data = impact(shop_root, "--base", "HEAD")
    assert result.exit_code == 1
    assert data["gate"] == {"fail_on": "breaking", "tripped": True}
    assert [i["node"] for i in data["impacts"] if i["classification"] == "breaking"] == [ENRICH_T]


def test_deleted_table_reports_the_new_errors(shop_root, impact):
    delete_table_in_use(shop_root)
    result, data = impact(shop_root, "--base", "HEAD")
    reasons = {i["node"]: i["reasons"] for i in data["impacts"]}
    assert any("FX130" in r for r in reasons[WATCH_T])
    assert any("removed" in r for r in reasons[STATUS_T])
