"""`flinkx upgrade-check --to 2.3` and `flinkx fix --to 2.3` on the version-sensitive tasks of
tests/fixtures/flink_targets (a 1.20 workspace), as real subprocesses of the CLI. Which tasks the
2.3 planner rejects and 1.20's accepts is recorded in expected.json from the real planners."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from flinkx_build.commands.planner_switch import NO_PLANNER_ENV
from tests.planner.conftest import jars_23  # noqa: F401 - the session fixture: Flink 2.3's jars

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "flink_targets"
PLANNER = json.loads((FIXTURE / "expected.json").read_text())["planner"]


def flinkx(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], capture_output=True, text=True, cwd=root, timeout=600)


def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE / "workspace", root)
    return root


def test_the_report_lists_every_task_the_move_breaks_and_nothing_else(tmp_path):
    root = workspace(tmp_path)
    done = flinkx(root, "upgrade-check", "--to", "2.3", "--format", "json")
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert (report["from"], report["to"]) == ("1.20", "2.3")
    broken = {t["task"].split("/")[1] for t in report["tasks"] if t["breaks"]}
    # exactly the tasks 2.3's planner rejects and 1.20's accepts
    newly_rejected = {task for task, verdict in PLANNER["2.3"].items()
                      if verdict.startswith("rejects") and PLANNER["1.20"][task] == "accepts"}
    assert broken == newly_rejected == {"new_reserved_word", "upsert_key_missing_on_conflict", "upsert_key_wider_than_pk"}
    codes = {t["task"].split("/")[1]: sorted({f["code"] for f in t["findings"]}) for t in report["tasks"]}
    assert codes["removed_option"] == ["FX122", "FX499"]  # a warning: 2.3 ignores the key
    assert codes["wrong_arity"] == []  # broken on 1.20 already: not the move's
    assert codes["variant_parse_json"] == []  # 2.3 has VARIANT and PARSE_JSON


def test_text_and_markdown_formats(tmp_path):
    root = workspace(tmp_path)
    text = flinkx(root, "upgrade-check", "--to", "2.3")
    assert text.returncode == 1
    assert "projects/dwd/tasks/removed_option.sql:1:1: FX122 'table.exec.topn-cache-size' was removed in Flink 2.0" in text.stdout
    assert text.stdout.splitlines()[-1] == "Flink 1.20 -> 2.3: 3 of 9 task(s) break, 3 more need attention"
    markdown = flinkx(root, "upgrade-check", "--to", "2.3", "--format", "markdown")
    assert markdown.stdout.startswith("## Flink 1.20 -> 2.3\n")
    assert "| dwd/upsert\\_key\\_missing\\_on\\_conflict |" in markdown.stdout or "| dwd/upsert_key_missing_on_conflict |" in markdown.stdout


def test_an_unknown_target_is_a_usage_error(tmp_path):
    done = flinkx(workspace(tmp_path), "upgrade-check", "--to", "1.17")
    assert done.returncode == 2
    assert done.stderr.strip() == ("flinkx: error: --to: flink_version '1.17' is not a Flink version flinkx has facts for "
                                   "(supported: 1.15, 1.20, 2.3); adding one: docs/flink-versions.md")


def test_fix_to_makes_the_safe_fixes_and_only_those(tmp_path):
    root = workspace(tmp_path)
    before = {p.name: p.read_text() for p in (root / "projects/dwd/tasks").iterdir()}
    done = flinkx(root, "fix", "--to", "2.3")
    assert done.returncode == 0, done.stderr
    after = {p.name: p.read_text() for p in (root / "projects/dwd/tasks").iterdir()}
    assert {n for n in after if after[n] != before[n]} == {"removed_option.sql", "new_reserved_word.sql"}
    assert after["removed_option.sql"].startswith("SET 'table.exec.rank.topn-cache-size' = '100';\n")
    assert "name AS `monday` FROM" in after["new_reserved_word.sql"] and "COUNT(`monday`)" in after["new_reserved_word.sql"]
    # ON CONFLICT is the author's choice (which row wins): left alone, still reported
    report = json.loads(flinkx(root, "upgrade-check", "--to", "2.3", "--format", "json").stdout)
    left = {f["code"] for t in report["tasks"] for f in t["findings"]}
    assert left == {"FX497", "FX499"}
    # and the fixed workspace still lints as it did on 1.20 (quoting is valid on both)
    assert "FX01" not in flinkx(root, "lint").stdout


def test_with_the_target_planner_every_rejected_task_is_listed_and_no_accepted_one(tmp_path, jars_23):
    # the real 2.3 planner is asked (FX301 where no fast check already names the place): the report
    # breaks exactly the tasks 2.3's planner rejects that were not broken on 1.20, and none it accepts
    root = workspace(tmp_path)
    # a mistake no fast check sees (a function's argument type): only the planner can list it
    (root / "projects" / "dwd" / "tasks" / "planner_only.sql").write_text(
        "INSERT INTO snk SELECT id, CAST(CHAR_LENGTH(v) AS BIGINT) FROM ods.src;\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != NO_PLANNER_ENV}
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "upgrade-check", "--to", "2.3", "--format", "json"],
                          capture_output=True, text=True, cwd=root, timeout=900, env=env)
    assert done.returncode == 1, done.stderr
    assert "did not run" not in done.stderr, done.stderr  # the planner gave its verdict
    report = json.loads(done.stdout)
    broken = {t["task"].split("/")[1] for t in report["tasks"] if t["breaks"]}
    rejected_by_23 = {task for task, verdict in PLANNER["2.3"].items() if verdict.startswith("rejects")}
    broken_on_120 = {task for task, verdict in PLANNER["1.20"].items() if verdict.startswith("rejects")}
    assert broken == (rejected_by_23 - broken_on_120) | {"planner_only"}
    planner_only = next(t for t in report["tasks"] if t["task"].endswith("/planner_only"))
    assert [(f["code"], f["line"], f["col"]) for f in planner_only["findings"]] == [("FX301", 1, 33)]  # at CHAR_LENGTH
    # the state of each stateful task, per a restore trial across versions (state_trial.py): 1.20's driver runs
    # the job and takes a savepoint, 2.3's restores it into the task's 2.3 job (both runtimes, real Flink)
    state = {t["task"].split("/")[1]: t.get("state", {}).get("status") for t in report["tasks"]}
    assert state["removed_option"] == state["upsert_key_is_pk"] == "survives", state
    assert state["new_reserved_word"] == "not checked"  # 2.3 does not compile it as it is: nothing to restore into
    assert state["on_conflict_deduplicate"] == "not checked"  # 1.20 does not plan it: no savepoint to take
    fx499 = {t["task"].split("/")[1] for t in report["tasks"] for f in t["findings"] if f["code"] == "FX499"}
    assert "removed_option" not in fx499 and "upsert_key_is_pk" not in fx499  # proven, so no warning
    assert {"new_reserved_word", "on_conflict_deduplicate"} <= fx499  # not proven: the warning says why


def test_without_the_planner_the_report_says_so_once(tmp_path):
    root = workspace(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != NO_PLANNER_ENV}
    env["PATH"] = ""  # no java: the planner cannot run, the offline report still does
    env.pop("JAVA_HOME", None)
    done = subprocess.run([sys.executable, "-m", "flinkx_build", "upgrade-check", "--to", "2.3"],
                          capture_output=True, text=True, cwd=root, timeout=600, env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    notes = [line for line in done.stderr.splitlines() if "FX301" in line]
    assert len(notes) == 1 and "did not run" in notes[0], done.stderr
