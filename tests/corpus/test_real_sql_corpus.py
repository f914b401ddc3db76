"""Issue 28 item 3: "the corpus lints clean" as a CI test.

tests/fixtures/corpus/ holds real Flink SQL from public projects (origins in each source's
MANIFEST.json, the cookbook's in its README), every statement accepted by Flink 1.20.5 when the
corpus was gathered (scripts/real_sql_corpus.py check). Linted as one workspace, no statement may get
a finding, `build --check` must agree, and the flink-marked test has Flink accept the built corpus.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from flinkx_build.frontend.splitter import split_statements
from tests.corpus.workspace import CORPUS
from tests.corpus.workspace import FLINKX_YAML
from tests.corpus.workspace import corpus_workspace
from tests.corpus.workspace import sources
from tests.helpers import flink_available


def flinkx(root, *args):
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=root, capture_output=True, text=True, timeout=900)


@pytest.fixture(scope="module")
def corpus_ws(tmp_path_factory):
    return corpus_workspace(tmp_path_factory.mktemp("corpus")).parent


def test_every_statement_has_its_origin_and_licence():
    manifests = [s for s in sources() if (s / "MANIFEST.json").exists()]
    assert len(manifests) >= 4
    for source in manifests:
        manifest = json.loads((source / "MANIFEST.json").read_text())
        assert manifest["license"] == "Apache-2.0" and list(source.glob("LICENSE*")), source
        listed = {entry["file"]: entry for entry in manifest["files"] if entry["file"]}
        assert set(listed) == {p.name for p in source.glob("*.sql")}, source
        for name, entry in listed.items():
            assert re.fullmatch(r"[\w.-]+/[\w.-]+", entry["repo"]) and re.fullmatch(r"[0-9a-f]{40}", entry["commit"]), entry
            assert entry["path"] and entry["license"] == "Apache-2.0"
            statements = split_statements((source / name).read_text(encoding="utf-8"))
            kept = entry["kept"]
            assert len([c for c in statements if c.kind == "statement"]) == len([k for k in kept if k != "statement set"]), name
    assert (CORPUS / "flink-sql-cookbook" / "LICENSE").exists()  # its origins: tests/fixtures/corpus/README.md


def test_the_corpus_lints_clean_and_build_agrees(corpus_ws):
    lint = flinkx(corpus_ws, "lint", "ws")
    assert (lint.returncode, lint.stdout) == (0, ""), lint.stdout + lint.stderr
    build = flinkx(corpus_ws, "build", "ws", "--check")
    assert (build.returncode, build.stdout) == (0, ""), build.stdout + build.stderr


def test_the_policies_the_corpus_workspace_turns_off_still_fire(tmp_path):
    """With flinkx's defaults the corpus gets FX196, FX480, FX123 and FX474 only: the two policies, the
    deprecation advice, and the task-is-one-deployment warning (a documentation page is a sequence of
    client steps: the same INSERT shown twice, a job restarted from its savepoint, "you can use ... or"),
    nothing else."""
    ws = corpus_workspace(tmp_path, flinkx_yaml=FLINKX_YAML.split("lint:")[0])
    lint = flinkx(tmp_path, "lint", "ws")
    codes = {line.split(" ")[1] for line in lint.stdout.splitlines()}
    assert lint.returncode == 1 and codes == {"FX123", "FX196", "FX480", "FX474"}, lint.stdout
    assert f"{ws.name}/projects/fluss_docs/tasks/engine-flink__reads.sql:2:1: FX196 SET 'execution.runtime-mode'" in lint.stdout


@pytest.mark.flink
@pytest.mark.skipif(flink_available() is not None, reason=f"Flink extra not usable: {flink_available()}")
def test_flink_accepts_the_built_corpus(corpus_ws):
    result = flinkx(corpus_ws, "validate", "ws")
    assert result.returncode == 0, result.stdout + result.stderr
