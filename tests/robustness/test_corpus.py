"""The bad-input corpus: each case breaks one file of a small workspace in one way.

`corpus/manifest.json` lists the cases (issue 12's list and more): which
file of `base/` is replaced, by what (a corpus file, generated text, or a
symlink out of the workspace), and the finding it must produce: code,
line and column, and build's exit code; build and lint print that one finding
and no other (one mistake, one line). Every case also goes through lint,
explain and graph, which must behave (see `harness`).
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.robustness.harness import FINDING
from tests.robustness.harness import every_command
from tests.robustness.harness import finding_at
from tests.robustness.harness import problems

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
CASES = json.loads((CORPUS / "manifest.json").read_text(encoding="utf-8"))
SECRET = "root:x:0:0:not-for-ci-logs"


def test_the_corpus_is_large_and_every_case_names_its_finding():
    assert len(CASES) >= 60
    assert len({c["id"] for c in CASES}) == len(CASES)
    for case in CASES:
        assert case["exit"] in (0, 1, 2)
        assert case["code"] is None or (case["line"] >= 1 and case["col"] >= 1), case["id"]
        assert sum(k in case for k in ("file", "generate", "link")) == 1, case["id"]


def _mutate(ws: Path, outside: Path, case: dict) -> None:
    target = ws / case["target"]
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    elif target.exists() or target.is_symlink():
        target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    if "file" in case:
        target.write_bytes((CORPUS / case["file"]).read_bytes())
    elif "generate" in case:
        gen = case["generate"]
        target.write_text(gen["prefix"] + gen["repeat"] * gen["times"] + gen["suffix"], encoding="utf-8")
    elif case["link"] == "outside-file":
        secret = outside / "secret.txt"
        secret.write_text(f"name: {SECRET}\n{SECRET}: 1\n")
        target.symlink_to(secret)
    else:
        folder = outside / "tasks"
        folder.mkdir(exist_ok=True)
        (folder / "outside.sql").write_text(f"SELECT '{SECRET}';\n")
        target.symlink_to(folder, target_is_directory=True)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_bad_input_gives_one_finding_at_its_place(case, cli, tmp_path):
    ws = tmp_path / "ws"
    shutil.copytree(HERE / "base", ws)
    (tmp_path / "outside").mkdir()
    _mutate(ws, tmp_path / "outside", case)
    target = case["target"] if "file" in case or "generate" in case else None
    runs = every_command(cli, ws, case["explain"], target)
    wrong = [p for r in runs for p in problems(r)]
    assert not wrong, "\n".join(wrong)
    build, lint = runs[0], runs[1]
    assert build.exit_code == case["exit"], build.lines
    assert lint.exit_code == case["exit"], lint.lines
    if case["code"]:
        # build and lint report it; so does lint of the file alone (the pre-commit hook), unless flinkx.yaml is broken
        reporting = [r for r in runs if r.args[0] == "build" or r.args == ("lint", ".")]
        # (a file name with a newline is shown escaped, so lint FILES cannot match it to its finding)
        reporting += [r for r in runs if r.args == ("lint", ".", target) and case["exit"] != 2 and target.isprintable()]
        for outcome in reporting:
            assert finding_at(outcome, case["code"], case["line"], case["col"]), (outcome.args, outcome.lines)
    # one seeded mistake, one line (issue 44): nothing derived from it is reported beside it
    for outcome in (build, lint):
        found = [line for line in outcome.lines if FINDING.match(line)]
        assert len(found) == (1 if case["code"] else 0), (outcome.args, found)
    for outcome in runs:
        assert SECRET not in outcome.stdout + outcome.stderr  # nothing read through a link out
    assert not (Path("/tmp") / "flinkx-pwned").exists()
