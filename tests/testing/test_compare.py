"""Final tables from changelogs and the diffs a failing test prints (pure Python)."""
from __future__ import annotations

from decimal import Decimal
from types import SimpleNamespace

from flinkx_build.testing.bind import BoundTable
from flinkx_build.testing.bind import Change
from flinkx_build.testing.bind import TableInfo
from flinkx_build.testing.compare import compare
from flinkx_build.testing.compare import final_table
from flinkx_build.testing.compare import point_verdicts
from flinkx_build.testing.timeline import BoundStep
from flinkx_build.workspace_model import Loc


def change(kind: str, line: int | None = None, **values) -> Change:
    return Change(kind, values, Loc("t.yaml", line) if line else None)


def table(primary_key: list[str]) -> TableInfo:
    return TableInfo("p.sink", ["sink"], {}, primary_key, "insert", "upsert")


def test_final_table_by_primary_key():
    log = [change("+I", id=1, n=1), change("+I", id=2, n=1), change("-U", id=1, n=1),
           change("+U", id=1, n=2), change("-D", id=2, n=1)]
    assert final_table(log, ["id"]) == [{"id": 1, "n": 2}]


def test_final_table_merges_partial_writes_of_one_key():
    log = [change("+I", rowkey="7", ord=("o1",)), change("+I", rowkey="7", rfd=("r1",))]
    assert final_table(log, ["rowkey"]) == [{"rowkey": "7", "ord": ("o1",), "rfd": ("r1",)}]


def test_final_table_without_key_is_a_multiset():
    log = [change("+I", a=1), change("+I", a=1), change("-U", a=1), change("+U", a=2)]
    assert final_table(log, []) == [{"a": 1}, {"a": 2}]


def test_rows_match_on_listed_columns_in_any_order():
    expect = BoundTable(table(["id"]), "rows", [change("+I", 3, n=2), change("+I", 4, id=1)], False, Loc("t.yaml", 1))
    verdict = compare(expect, [change("+I", id=1, n=5), change("+I", id=2, n=2)])
    assert verdict.ok, verdict


def test_a_wrong_value_shows_the_missing_row_and_its_closest_actual_row():
    expect = BoundTable(table(["id"]), "rows", [change("+I", 3, id=1, gmv=Decimal("15.50"))], False, Loc("t.yaml", 1))
    verdict = compare(expect, [change("+I", id=1, gmv=Decimal("10.00"))])
    assert not verdict.ok
    assert verdict.summary == "1 missing row, 1 unexpected row (expected 1, got 1)"
    assert verdict.details == [
        'missing:    {id: 1, gmv: "15.50"}  (t.yaml:3)',
        '            closest actual row differs in gmv: expected "15.50", got "10.00"',
        'unexpected: {id: 1, gmv: "10.00"}',
    ]


def test_ordered_rows_report_the_first_difference():
    expect = BoundTable(table([]), "rows", [change("+I", 3, a=1), change("+I", 4, a=2)], True, Loc("t.yaml", 1))
    assert compare(expect, [change("+I", a=1), change("+I", a=2)]).ok
    verdict = compare(expect, [change("+I", a=2), change("+I", a=1)])
    assert verdict.summary == "row 1 differs (ordered)"
    assert verdict.details[:2] == ["expected: {a: 1}  (t.yaml:3)", "actual:   {a: 2}"]


def test_changelog_reports_the_first_differing_change():
    expect = BoundTable(table(["id"]), "changelog", [change("+I", 5, id=1), change("-U", 6, id=1)], False, Loc("t.yaml", 1))
    written = [change("+I", id=1, n=1), change("+U", id=1, n=2)]
    verdict = compare(expect, written)
    assert verdict.summary == "change 2 differs (kind)"
    assert verdict.details[:2] == ["expected: -U {id: 1}  (t.yaml:6)", "actual:   +U {id: 1}"]
    shorter = compare(expect, written[:1])
    assert shorter.summary == "only 1 change(s), expected 2"
    longer = compare(BoundTable(table([]), "changelog", [change("+I", 5, id=1)], False, Loc("t.yaml", 1)), written)
    assert longer.summary == "1 unexpected change(s) after the 1 expected"


def test_state_keys_at_a_point_are_judged_in_step_order():
    """The n-th `expect` or `state_keys` step is judged against the n-th point the driver recorded."""
    at = Loc("t.yaml", 9)
    steps = [BoundStep("rows", Loc("t.yaml", 3)),
             BoundStep("state_keys", Loc("t.yaml", 5), keys=[("GlobalWindowAggregate", 1, at)]),
             BoundStep("state_keys", Loc("t.yaml", 8), keys=[("GlobalWindowAggregate", 1, at), ("WindowAggregate", 0, at)])]
    run = SimpleNamespace(points=[{}, {}], point_keys=[{"GlobalWindowAggregate": 1}, {"GlobalWindowAggregate": 0}])
    first, second, unknown = point_verdicts(SimpleNamespace(timeline=steps), run)
    assert first.ok and first.at == "by line 5"
    assert (second.ok, second.table, second.form, second.summary) == (
        False, "GlobalWindowAggregate", "state keys", "holds 0 keys, expected 1")
    assert second.details == ["expected: 1 key  (t.yaml:9)", "actual:   0 keys"]
    assert not unknown.ok
    assert unknown.summary == ("no operator of this name holds keyed state in this job "
                               "(did you mean 'GlobalWindowAggregate'?)")
    assert unknown.details == ["operators with keyed state: GlobalWindowAggregate (0 keys)  (t.yaml:9)"]
