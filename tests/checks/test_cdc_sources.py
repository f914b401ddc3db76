"""FX460-FX463: mysql-cdc sources (seed 001: unique server-id per reader, a range at least
the parallelism, a chunk key column for tables without a primary key, no watermark)."""
from __future__ import annotations

import textwrap
import time

import pytest

CDC = """
    type: mysql-cdc
    columns:
      - {{name: id, type: BIGINT}}
      - {{name: name, type: STRING}}
      - {{name: ts, type: "TIMESTAMP(3)"}}
    {key}
    with: {{connector: mysql-cdc, hostname: db1, port: "3306", username: flink, password: "${{pw}}", database-name: shop, table-name: {name}, server-id: "{ids}"{extra}}}
"""
SINK = "type: print\ncolumns:\n  - {name: id, type: BIGINT}\n  - {name: name, type: STRING}\nwith: {connector: print}\n"


def workspace(make_workspace, tasks: dict[str, str], ids=("5400-5403", "5500-5503"), key="primary_key: [id]", extra=""):
    files = {
        "flinkx.yaml": "engine: flink\nsecrets: [pw]\n",
        "projects/ods/tables/users.yaml": textwrap.dedent(CDC.format(key=key, name="users", ids=ids[0], extra=extra)),
        "projects/ods/tables/orders.yaml": textwrap.dedent(CDC.format(key=key, name="orders", ids=ids[1], extra=extra)),
        "projects/ods/tables/out.yaml": SINK,
    }
    files.update({f"projects/ods/tasks/{n}.sql": sql for n, sql in tasks.items()})
    return make_workspace(files)


def codes(cli, ws) -> list[str]:
    result = cli("lint", str(ws))
    return [line.split()[1] for line in result.stdout.splitlines() if " FX46" in line]


READ_USERS = "INSERT INTO out SELECT id, name FROM users;\n"
READ_ORDERS = "INSERT INTO out SELECT id, name FROM orders;\n"


def test_distinct_ranges_are_fine(make_workspace, cli):
    assert codes(cli, workspace(make_workspace, {"a": READ_USERS, "b": READ_ORDERS})) == []


def test_overlapping_ranges_on_one_server(make_workspace, cli):
    ws = workspace(make_workspace, {"a": READ_USERS, "b": READ_ORDERS}, ids=("5400-5403", "5403-5410"))
    result = cli("lint", str(ws))
    lines = [line for line in result.stdout.splitlines() if "FX460" in line]
    assert len(lines) == 2 and all("overlaps" in line for line in lines)
    assert any("users.yaml" in line and "orders" in line for line in lines)  # each names the other place


def test_a_hint_gives_one_task_its_own_ids(make_workspace, cli):
    hinted = "INSERT INTO out SELECT id, name FROM orders /*+ OPTIONS('server-id' = '6000-6003') */;\n"
    ws = workspace(make_workspace, {"a": READ_USERS, "b": hinted}, ids=("5400-5403", "5400-5403"))
    assert codes(cli, ws) == []


def test_range_smaller_than_parallelism(make_workspace, cli):
    sql = "SET 'parallelism.default' = '8';\n" + READ_USERS
    assert codes(cli, workspace(make_workspace, {"a": sql})) == ["FX461"]


@pytest.mark.parametrize("key, extra, expected", [
    ("", "", ["FX462"]),
    ("", ", scan.incremental.snapshot.chunk.key-column: id", []),
])
def test_table_without_primary_key(make_workspace, cli, key, extra, expected):
    assert codes(cli, workspace(make_workspace, {"a": READ_USERS}, key=key, extra=extra)) == expected


def test_watermark_on_cdc_source(make_workspace, cli):
    sql = "SET users.`watermark` = 'WATERMARK FOR ts AS ts';\n" + READ_USERS
    assert codes(cli, workspace(make_workspace, {"a": sql})) == ["FX463"]


def test_a_long_run_of_spaces_in_a_server_id_is_read_in_linear_time():
    # the pattern had two adjacent \s* runs (quadratic): 50,000 spaces took 12 s, 200,000 over four minutes
    from flinkx_build.resolve.reads import server_id_range

    began = time.perf_counter()
    assert server_id_range("5400" + " " * 200_000 + "x") is None
    assert time.perf_counter() - began < 1  # a hang guard: the linear read takes well under a millisecond
    assert server_id_range(" 5408 - 5400 ") == (5400, 5408)
    assert server_id_range("5400") == (5400, 5400)


@pytest.mark.parametrize("ids", ["5400-5" + "1" * 5000, "1" * 5000])
def test_a_server_id_too_long_for_a_number_is_no_range(make_workspace, cli, ids):
    # int() refuses more than 4,300 digits: this was an internal error
    result = cli("lint", str(workspace(make_workspace, {"a": READ_USERS}, ids=(ids, "5500-5503"))))
    assert "internal error" not in result.stdout + result.stderr
    assert [line.split()[1] for line in result.stdout.splitlines() if " FX46" in line] == []


@pytest.mark.parametrize("written", ["²", "1" * 5000])
def test_a_parallelism_that_is_no_plain_number_counts_as_one(make_workspace, cli, written):
    # '²' is a digit to str.isdigit but not to int(): this was an internal error
    sql = f"SET 'parallelism.default' = '{written}';\n" + READ_USERS
    result = cli("lint", str(workspace(make_workspace, {"a": sql})))
    assert "internal error" not in result.stdout + result.stderr
    assert [line.split()[1] for line in result.stdout.splitlines() if " FX46" in line] == []


def _all_pairs(readers):
    """FX460's definition, pair by pair in the readers' order (what the sweep must give, in that order)."""
    out = []
    for i, a in enumerate(readers):
        for b in readers[i + 1:]:
            if a.server == b.server and a.origin != b.origin and not (a.ids[1] < b.ids[0] or b.ids[1] < a.ids[0]):
                out += [(a.origin.path, a.origin.line, b.task), (b.origin.path, b.origin.line, a.task)]
    return out


@pytest.mark.parametrize("seed", range(20))
def test_the_overlap_sweep_finds_every_overlapping_pair_in_order(seed):
    import random

    from flinkx_build.checks.cdc_sources import overlap_findings
    from flinkx_build.resolve.analysed import Origin
    from flinkx_build.resolve.reads import CdcReader

    rng = random.Random(seed)
    readers = []
    for n in range(rng.randint(0, 60)):
        lo = rng.randint(5400, 5440)
        place = rng.randint(0, 30)  # a few readers share a place (one table read twice): never a pair
        readers.append(CdcReader(f"p/t{n}", f"p.cdc{n}", rng.choice(["db1:3306", "db2:3306", "${host}:3306"]),
                                 (lo, lo + rng.choice([0, 0, 1, 3, 8])), Origin("schema", f"projects/p/tables/c{place}.yaml", place + 1)))
    found = [(d.path, d.line, d.message.split("(")[2].split(",")[0]) for d in overlap_findings(readers)]
    assert found == _all_pairs(readers)
    assert all(d.code == "FX460" for d in overlap_findings(readers))
