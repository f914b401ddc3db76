"""`flinkx impact`: revisions, formats, usage errors and what it leaves behind."""
from __future__ import annotations

import json
import tempfile

import pytest

from flinkx_build.cache_version import versioned_cache_root

from tests.graph.gitrepo import git
from tests.graph.gitrepo import make_repo
from tests.graph.gitrepo import repo_with
from tests.impact.test_impact_scenarios import ENRICH_T
from tests.impact.test_impact_scenarios import add_column
from tests.impact.test_impact_scenarios import change_variable
from tests.impact.test_impact_scenarios import rename_column


def test_bad_revision_is_one_line_exit_2(shop_root, impact):
    result, data = impact(shop_root, "--base", "no-such-branch")
    assert result.exit_code == 2
    said = f"flinkx: error: unknown revision 'no-such-branch' (not a commit in {shop_root.root.resolve()})"
    assert data == {"findings": [], "error": said}  # --format json: stdout stays JSON (issue 33)
    assert result.stderr.splitlines() == [said]
    result, _ = impact(shop_root, "--base", "HEAD", "--head", "--oops")
    assert result.exit_code == 2 and result.stderr.splitlines() == ["flinkx: error: invalid revision '--oops'"]


def test_not_a_git_repository(make_workspace, cli, tmp_path):
    ws = make_workspace({"projects/a/tables/t.yaml": "type: print\ncolumns: [{name: x, type: INT}]\n"})
    result = cli("impact", str(ws), "--base", "HEAD")
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1 and "not inside a git repository" in result.stderr


def test_head_revision_compares_two_commits(shop_root, impact):
    rename_column(shop_root)
    shop_root.commit("rename")
    change_variable(shop_root)
    shop_root.commit("variable")
    add_column(shop_root)  # uncommitted: ignored when --head is given
    result, data = impact(shop_root, "--base", "HEAD~2", "--head", "HEAD~1")
    assert result.exit_code == 1
    assert [c["node"] for c in data["changes"]] == ["table.ods.orders"]
    assert data["head"].startswith("HEAD~1 (")
    result, data = impact(shop_root, "--base", "HEAD~1", "--head", "HEAD")
    assert {c["node"] for c in data["changes"]} == {ENRICH_T, "task.dws.agg/big_orders"}
    assert result.exit_code == 0


def test_workspace_new_in_head(tmp_path, impact):
    repo = make_repo(tmp_path / "repo", "warehouse/flink")
    git(repo.root, "checkout", "-q", "--orphan", "empty")
    git(repo.root, "rm", "-rq", "--cached", "warehouse")
    git(repo.root, "commit", "-q", "-m", "nothing but the monorepo")
    empty = git(repo.root, "rev-parse", "HEAD")
    git(repo.root, "checkout", "-q", "-f", "main")
    result, data = impact(repo, "--base", empty, "--fail-on", "any")
    assert result.exit_code == 1
    kinds = {c["node"].split(".")[0] for c in data["changes"] if c["change"] == "added"}
    assert kinds == {"project", "table", "function", "task"}
    assert all(i["relation"] == "changed" and i["classification"] == "non-breaking" for i in data["impacts"])


def test_leaves_nothing_behind(shop, cli, monkeypatch, tmp_path):
    temp = tmp_path / "systemp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    rename_column(shop)
    before = {p for p in shop.root.rglob("*") if ".flinkx-cache" not in p.parts}
    result = cli("impact", shop.prefix or ".", "--base", "HEAD", cwd=shop.root)
    assert result.exit_code == 1
    assert list(temp.iterdir()) == []  # the checked-out revision is gone
    after = {p for p in shop.root.rglob("*") if ".flinkx-cache" not in p.parts}
    assert after == before  # only the cache folder may grow
    assert git(shop.root, "status", "--porcelain").split() == ["M", shop.repo_path("projects/ods/tables/orders.yaml")]


def test_markdown_is_a_pr_comment(shop, impact):
    rename_column(shop)
    result, _ = impact(shop, "--base", "HEAD", fmt="markdown")
    md = result.stdout
    assert result.exit_code == 1
    assert md.startswith("## flinkx impact\n")
    assert "| Project | Changed nodes | Breaking | Changes data | Non-breaking | Indirect | Impacted from |" in md
    assert "| dwd | 0 | 1 | 0 | 1 | 0 | ods |" in md and "| dws | 0 | 0 | 0 | 0 | 3 | ods |" in md
    # breaking because Flink will reject it: the finding that says so, at the reading line
    row = next(line for line in md.splitlines() if line.startswith("| [`dwd/orders/enrich_orders`]("))
    assert f"]({shop.repo_path('projects/dwd/tasks/orders/enrich_orders.sql')}#L15) |" in row  # links to the breaking line
    assert "| :x: **breaking** (direct, cross-project from ods) | ods.orders: reads column channel, which was removed;" in row
    # one table per project, and each row says how the change reaches what the task writes
    assert md.index("#### dwd") < md.index("#### dws") and md.index("#### dwd") < md.index(row)
    assert row.endswith(" | `ods.orders` → `dwd/orders/enrich_orders` → `dwd.dwd_orders` |"), row
    indirect = next(line for line in md.splitlines() if line.startswith("| [`dws/"))
    assert "`ods.orders` → `dwd/orders/enrich_orders` → `dwd.dwd_orders` → `dws/" in indirect, indirect
    assert f"Flink will reject it: {shop.repo_path('projects/dwd/tasks/orders/enrich_orders.sql')}:15:3: FX401 unknown column 'o.channel' in o" in row
    assert f"`{shop.repo_path('projects/ods/tables/orders.yaml')}`" in md
    mermaid = md[md.index("```mermaid\n") + 11: md.rindex("```")]
    assert mermaid.startswith("flowchart LR") and "class " in mermaid and "breaking" in mermaid


def test_markdown_without_changes(shop_root, impact):
    result, _ = impact(shop_root, "--base", "HEAD", fmt="markdown")
    assert result.exit_code == 0
    assert "no semantic changes: nothing is impacted" in result.stdout and "```mermaid" not in result.stdout


def test_sarif(shop, impact):
    rename_column(shop)
    result, sarif = impact(shop, "--base", "HEAD", "--fail-on", "never", fmt="sarif")
    assert result.exit_code == 0
    assert sarif["version"] == "2.1.0"
    results = sarif["runs"][0]["results"]
    impacts = [r for r in results if r["ruleId"].startswith("impact-")]
    levels = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: (r["ruleId"], r["level"]) for r in impacts}
    assert levels[shop.repo_path("projects/dwd/tasks/orders/enrich_orders.sql")] == ("impact-breaking", "error")
    # the breaking result sits at the line that reads the renamed column (FX401 there), not line 1
    breaking = next(r for r in impacts if r["ruleId"] == "impact-breaking")
    finding = next(r for r in results if r["ruleId"] == "FX401")
    assert breaking["locations"][0]["physicalLocation"]["region"] == finding["locations"][0]["physicalLocation"]["region"]
    assert breaking["locations"][0]["physicalLocation"]["region"]["startLine"] > 1
    rules = {rule["id"]: rule for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["impact-breaking"]["helpUri"].endswith("graph-and-impact.md#flinkx-impact")
    assert rules["FX401"]["helpUri"].endswith("#fx401")
    assert levels[shop.repo_path("projects/dwd/tasks/orders/order_status.sql")] == ("impact-direct", "warning")
    assert levels[shop.repo_path("projects/dws/tasks/status_watch.sql")] == ("impact-indirect", "note")


def test_sarif_carries_new_errors(shop_root, impact):
    shop_root.remove("projects/dwd/tables/order_status.yaml")
    _, sarif = impact(shop_root, "--base", "HEAD", fmt="sarif")
    errors = [r for r in sarif["runs"][0]["results"] if r["ruleId"] == "FX130"]
    assert {e["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for e in errors} == {
        "projects/dwd/tasks/orders/order_status.sql", "projects/dws/tasks/status_watch.sql",
    }


def test_text_report(shop_root, impact):
    rename_column(shop_root)
    result, _ = impact(shop_root, "--base", "HEAD", fmt="text")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("flinkx impact: base HEAD (") and lines[0].endswith(") -> head working tree")
    assert "  BREAKING      direct    task.dwd.orders/enrich_orders  (dwd, cross-project from ods)" in lines
    assert "      column channel renamed to sales_channel" in lines
    assert lines[-1].startswith("gate --fail-on breaking: tripped (exit 1)")


def test_cache_is_shared_with_the_working_tree(shop_root, cli):
    """The base side parses into the working tree's cache: a second run parses nothing."""
    rename_column(shop_root)
    cli("impact", ".", "--base", "HEAD", "--fail-on", "never", cwd=shop_root.root)
    cache = versioned_cache_root(shop_root.root, ".flinkx-cache") / "parse"
    entries = {p.name for p in cache.rglob("*.json")}
    assert len(entries) == 5  # one per task: both sides render every task alike
    cli("impact", ".", "--base", "HEAD", "--fail-on", "never", cwd=shop_root.root)
    assert {p.name for p in cache.rglob("*.json")} == entries


def test_json_shape(shop_root, impact):
    change_variable(shop_root)
    _, data = impact(shop_root, "--base", "HEAD")
    assert set(data) == {"base", "head", "workspace", "summary", "gate", "changes", "impacts", "projects", "new_errors"}
    enrich = next(i for i in data["impacts"] if i["node"] == ENRICH_T)
    assert enrich == {
        "node": ENRICH_T, "project": "dwd", "source": "projects/dwd/tasks/orders/enrich_orders.sql",
        "relation": "changed", "classification": "non-breaking", "cross_project": False,
        "causes": [ENRICH_T], "reasons": ["task modified: SQL changed"],
        "lineage": [[ENRICH_T, "table.dwd.dwd_orders"]],  # from the change to what it writes
    }
    assert data["projects"]["dws"] == {"changed": 1, "breaking": 0, "changes-data": 0, "non-breaking": 1, "indirect": 1, "impacted_from": ["dwd"]}
    assert json.dumps(data)  # plain data


WATERMARKED = {
    "flinkx.yaml": "engine: flink\n",
    "projects/a/tables/src.yaml": "type: kafka\ncolumns:\n  - {name: id, type: INT}\n  - {name: ts, type: TIMESTAMP(3)}\n  - {name: note, type: STRING}\nwith: {connector: kafka}\n",
    "projects/a/tables/sink.yaml": "type: print\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: print}\n",
    "projects/a/tasks/copy.sql": "SET src.`watermark` = 'WATERMARK FOR ts AS ts - INTERVAL ''1'' SECOND';\nINSERT INTO sink SELECT id FROM src;\n",
}


@pytest.mark.parametrize("column, klass", [("ts", "changes-data"), ("note", "non-breaking")])
def test_a_watermark_column_is_read(tmp_path, impact, column, klass):
    """The watermark reads ts: retyping it to TIMESTAMP_LTZ(3) changes the job's event time, but
    Flink accepts a watermark on TIMESTAMP_LTZ(3), so it is not breaking (the gate passes)."""
    repo = repo_with(tmp_path / "repo", WATERMARKED)
    old = "{name: ts, type: TIMESTAMP(3)}" if column == "ts" else "{name: note, type: STRING}"
    repo.edit("projects/a/tables/src.yaml", old, old.replace("TIMESTAMP(3)", "TIMESTAMP_LTZ(3)").replace("STRING", "BIGINT"))
    result, data = impact(repo, "--base", "HEAD")
    assert result.exit_code == 0
    [task] = data["impacts"]
    assert task["classification"] == klass
    assert any(f"column {column}" in r for r in task["reasons"])
