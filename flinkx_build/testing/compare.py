"""Expected against actual: final tables from changelogs, and readable diffs.

`rows` compares the sink's final table: the changelog applied by the sink's primary key (an
upsert: +I/+U put, -U/-D remove), or, without a key, as a multiset (+I/+U add a row, -U/-D
take one away), which for an append sink is every insert. Only the columns an expected row
lists are compared. `changelog` compares the exact sequence of changes, kinds included.
"""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field
from typing import Any

from flinkx_build.errors import did_you_mean
from flinkx_build.testing.bind import BoundTable
from flinkx_build.testing.bind import Change
from flinkx_build.testing.values import show

SHOWN_CHANGES = 12  # how much of an actual changelog a failure prints


@dataclass
class TableVerdict:
    table: str
    form: str  # rows | changelog | kinds
    ok: bool
    summary: str = ""  # one line, e.g. "1 missing row, 1 unexpected row"
    details: list[str] = field(default_factory=list)
    at: str = ""  # a timeline point ("by line 23"); "" at the end


def final_table(changes: list[Change], primary_key: list[str]) -> list[dict[str, Any]]:
    if primary_key:
        table: dict[tuple, dict[str, Any]] = {}
        for change in changes:
            key = tuple(change.values.get(k) for k in primary_key)
            if change.kind in ("+I", "+U"):
                # merged, not replaced: a sink written by several INSERTs with different
                # columns (HBase families) keeps what each one wrote
                table[key] = {**table.get(key, {}), **change.values}
            else:
                table.pop(key, None)
        return list(table.values())
    rows: list[dict[str, Any]] = []
    for change in changes:
        if change.kind in ("+I", "+U"):
            rows.append(dict(change.values))
        elif change.values in rows:
            rows.remove(change.values)
    return rows


def _matches(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    return all(actual.get(column) == value for column, value in expected.items())


def format_row(values: dict[str, Any], columns: list[str] | None = None) -> str:
    names = columns if columns is not None else list(values)
    return "{" + ", ".join(f"{n}: {show(values.get(n))}" for n in names) + "}"


def _where(change: Change) -> str:
    return f"  ({change.loc.path}:{change.loc.line})" if change.loc else ""


def compare(expect: BoundTable, written: list[Change]) -> TableVerdict:
    if expect.form == "changelog":
        return _compare_changelog(expect, written)
    if expect.form == "kinds":
        return _compare_kinds(expect, written)
    return _compare_rows(expect, final_table(written, expect.table.primary_key))


def _compare_rows(expect: BoundTable, actual: list[dict[str, Any]]) -> TableVerdict:
    verdict = TableVerdict(expect.table.key, "rows", True)
    columns: list[str] = []
    for change in expect.changes:
        columns += [c for c in change.values if c not in columns]
    shown_columns = columns or None
    if expect.ordered:
        for index in range(max(len(expect.changes), len(actual))):
            want = expect.changes[index] if index < len(expect.changes) else None
            got = actual[index] if index < len(actual) else None
            if want is not None and got is not None and _matches(want.values, got):
                continue
            verdict.ok = False
            verdict.summary = f"row {index + 1} differs (ordered)"
            verdict.details.append(f"expected: {format_row(want.values) + _where(want) if want else '(no more rows)'}")
            verdict.details.append(f"actual:   {format_row(got, shown_columns) if got is not None else '(no more rows)'}")
            return verdict
        return verdict
    unmatched = list(actual)
    missing: list[Change] = []
    # rows that list more columns are matched first, so a looser row cannot take their match
    for change in sorted(expect.changes, key=lambda c: -len(c.values)):
        found = next((i for i, row in enumerate(unmatched) if _matches(change.values, row)), None)
        if found is None:
            missing.append(change)
        else:
            unmatched.pop(found)
    if not missing and not unmatched:
        return verdict
    verdict.ok = False
    parts = []
    if missing:
        parts.append(f"{len(missing)} missing row{'s' * (len(missing) != 1)}")
    if unmatched:
        parts.append(f"{len(unmatched)} unexpected row{'s' * (len(unmatched) != 1)}")
    verdict.summary = ", ".join(parts) + f" (expected {len(expect.changes)}, got {len(actual)})"
    missing.sort(key=lambda c: c.loc.line if c.loc else 0)
    for change in missing:
        verdict.details.append(f"missing:    {format_row(change.values)}{_where(change)}")
        closest = _closest(change.values, unmatched)
        if closest:
            verdict.details.append(f"            closest actual row differs in {closest}")
    for row in unmatched:
        verdict.details.append(f"unexpected: {format_row(row, shown_columns)}")
    return verdict


def _closest(expected: dict[str, Any], candidates: list[dict[str, Any]]) -> str:
    """'gmv: expected "15.50", got "10.00"' for the candidate that differs in fewest columns."""
    best: list[str] | None = None
    for row in candidates:
        diffs = [f"{c}: expected {show(v)}, got {show(row.get(c))}" for c, v in expected.items() if row.get(c) != v]
        if diffs and len(diffs) < len(expected) and (best is None or len(diffs) < len(best)):
            best = diffs
    return "; ".join(best) if best else ""


def _compare_changelog(expect: BoundTable, written: list[Change]) -> TableVerdict:
    verdict = TableVerdict(expect.table.key, "changelog", True)
    columns: list[str] = []
    for change in expect.changes:
        columns += [c for c in change.values if c not in columns]
    for index in range(max(len(expect.changes), len(written))):
        want = expect.changes[index] if index < len(expect.changes) else None
        got = written[index] if index < len(written) else None
        if want and got and want.kind == got.kind and _matches(want.values, got.values):
            continue
        verdict.ok = False
        if want is None:
            verdict.summary = f"{len(written) - len(expect.changes)} unexpected change(s) after the {len(expect.changes)} expected"
        elif got is None:
            verdict.summary = f"only {len(written)} change(s), expected {len(expect.changes)}"
        else:
            what = "kind" if want.kind != got.kind else "values"
            verdict.summary = f"change {index + 1} differs ({what})"
        verdict.details.append(f"expected: {want.kind + ' ' + format_row(want.values) + _where(want) if want else '(end of changelog)'}")
        verdict.details.append(f"actual:   {got.kind + ' ' + format_row(got.values, columns or None) if got else '(end of changelog)'}")
        verdict.details.append("actual changelog:")
        for change in written[:SHOWN_CHANGES]:
            verdict.details.append(f"  {change.kind} {format_row(change.values, columns or None)}")
        if len(written) > SHOWN_CHANGES:
            verdict.details.append(f"  ... {len(written) - SHOWN_CHANGES} more")
        return verdict
    return verdict


def _compare_kinds(expect: BoundTable, written: list[Change]) -> TableVerdict:
    """The kinds of the changes received, in order (+I, -U, +U, -D), values not compared."""
    verdict = TableVerdict(expect.table.key, "kinds", True)
    wanted = [c.kind for c in expect.changes]
    got = [c.kind for c in written]
    if wanted == got:
        return verdict
    verdict.ok = False
    differs = next((i for i, (w, g) in enumerate(zip(wanted, got)) if w != g), min(len(wanted), len(got)))
    verdict.summary = (f"change {differs + 1} differs" if differs < min(len(wanted), len(got))
                       else f"{len(got)} change(s), expected {len(wanted)}")
    verdict.details.append(f"expected: {' '.join(wanted) or '(nothing)'}  ({expect.loc.path}:{expect.loc.line})")
    verdict.details.append(f"actual:   {' '.join(got) or '(nothing)'}")
    return verdict


def point_verdicts(case: Any, run: Any) -> list[TableVerdict]:
    """The verdicts of a timeline's `expect` and `state_keys` steps, against what each sink had received
    and the keys each stateful operator held by then."""
    verdicts: list[TableVerdict] = []
    points = getattr(run, "points", [])
    point_keys = getattr(run, "point_keys", [])
    steps = [step for step in (case.timeline or []) if step.kind in ("expect", "state_keys")]
    for index, step in enumerate(steps):
        seen = points[index] if index < len(points) else {}
        for expect in step.expect:
            verdict = compare(expect, seen.get(expect.table.key, []))
            verdict.at = f"by line {step.loc.line}"
            verdicts.append(verdict)
        held = point_keys[index] if index < len(point_keys) else {}
        for operator, wanted, loc in step.keys:
            verdict = _compare_keys(operator, wanted, held, loc)
            verdict.at = f"by line {step.loc.line}"
            verdicts.append(verdict)
    return verdicts


def _keys(count: int) -> str:
    return f"{count} key{'s' * (count != 1)}"


def _compare_keys(operator: str, wanted: int, held: dict[str, int], loc: Any) -> TableVerdict:
    """The keys a stateful operator held (Flink's operator name, as in the late-row report) against a number."""
    verdict = TableVerdict(operator, "state keys", True)
    if operator not in held:
        verdict.ok = False
        hint = did_you_mean(operator, held)
        verdict.summary = "no operator of this name holds keyed state in this job" + (f" ({hint})" if hint else "")
        operators = ", ".join(f"{name} ({_keys(n)})" for name, n in sorted(held.items()))
        verdict.details.append(f"operators with keyed state: {operators or '(none)'}  ({loc.path}:{loc.line})")
    elif held[operator] != wanted:
        verdict.ok = False
        verdict.summary = f"holds {_keys(held[operator])}, expected {wanted}"
        verdict.details.append(f"expected: {_keys(wanted)}  ({loc.path}:{loc.line})")
        verdict.details.append(f"actual:   {_keys(held[operator])}")
    return verdict


def late_notes(late: dict[str, int]) -> list[str]:
    """`late: 1 row dropped by <operator>` per operator that dropped rows behind the watermark."""
    return [f"late: {n} row{'s' * (n != 1)} dropped by {operator}" for operator, n in sorted(late.items())]
