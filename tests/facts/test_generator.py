"""scripts/gen_flink_facts.py on the real jars: the committed catalogs are what it writes today,
and the 1.20 catalog agrees with the data lint used before it (data/flink_reserved_words.json,
data/flink_builtin_functions.txt, data/flink_types.txt, data/flink_sink_casts.json, written once by the retired scripts/gen_flink_data.py)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from flinkx_build.flink_data import facts_for
from tests.facts.jars import flink_lib
from tests.facts.jars import skip_reason

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "flinkx_build" / "data"
FILES = ("keywords", "functions", "types", "options", "factories", "removed", "sink_casts", "return_types")


@pytest.mark.flink
@pytest.mark.parametrize("version", ["1.15", "1.20", "2.3"])
def test_committed_catalog_is_what_the_generator_writes(version, tmp_path):
    reason = skip_reason(version)
    if reason:
        pytest.skip(reason)
    out = tmp_path / "flink"
    # the generator writes removed.json against the version before: give it the committed ones
    for other in (p for p in (DATA / "flink").iterdir() if p.name != version):
        (out / other.name).mkdir(parents=True)
        for name in FILES:
            (out / other.name / f"{name}.json").write_text((other / f"{name}.json").read_text())
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "gen_flink_facts.py"), "--lib", str(flink_lib(version)),
                           "--out-root", str(out)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    for name in FILES:
        assert (out / version / f"{name}.json").read_text() == (DATA / "flink" / version / f"{name}.json").read_text(), \
            f"data/flink/{version}/{name}.json is stale: run scripts/gen_flink_facts.py"


def _old_words() -> dict[str, str]:
    return json.loads((DATA / "flink_reserved_words.json").read_text())["words"]


def test_120_rejects_every_word_lint_rejected_before():
    # the old list: seed 001's documented words, each tried bare with PyFlink 1.20.5's parser
    old_errors = {w for w, level in _old_words().items() if level == "error"}
    new = facts_for("1.20").keywords
    assert old_errors - {w for w, level in new.items() if level == "error"} == {"END-EXEC"}  # not a word
    # and finds the words the documentation missed (the parser's own list is longer)
    assert {"MATCH_RECOGNIZE", "JSON_VALUE", "SKIP", "SYSTEM_TIME"} <= facts_for("1.20").reserved


def test_120_keeps_every_documented_word_flink_accepts_as_a_warning_or_drops_non_keywords():
    old_warnings = {w for w, level in _old_words().items() if level == "warning"}
    new = facts_for("1.20").keywords
    # a documented word the parser does not have as a keyword is no longer reported at all
    assert all(new.get(w) in ("warning", None) for w in old_warnings)
    assert sum(1 for w in old_warnings if w in new) == 240  # every one of them


def test_120_functions_cover_the_functions_lint_knew():
    lines = (DATA / "flink_builtin_functions.txt").read_text().splitlines()
    old = {line.split("\t")[0] for line in lines if line and not line.startswith("#")}
    new = facts_for("1.20").functions
    assert old == new


def test_120_types_are_the_types_lint_knew():
    lines = (DATA / "flink_types.txt").read_text().splitlines()
    old = {line.split("\t")[0] for line in lines if line and not line.startswith("#")}
    assert old == set(facts_for("1.20").sql_types)


def test_120_sink_casts_are_the_casts_lint_knew():
    old = json.loads((DATA / "flink_sink_casts.json").read_text())["casts"]
    assert old == facts_for("1.20").sink_casts


@pytest.mark.parametrize("version", ["1.15", "1.20", "2.3"])
def test_every_version_states_its_sink_casts(version):
    casts = facts_for(version).sink_casts
    assert casts["INT"]["BIGINT"] == "no" and casts["BIGINT"]["INT"] == "yes"  # widening only, on both planners
