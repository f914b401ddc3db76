"""Issue 41, item 5: a variable named like a credential, used as a table or column name, is never printed in clear.

`db_password: HUNTER2Value` kept as a plain variable (not a declared secret) and written as `${db_password}` where a
name goes: the value became an identifier, and messages quoted it ("unknown table 'HUNTER2Value'") in lint's
GitHub annotations, the impact PR comment and the docs site. No `key = value` in those texts says it is a
credential, so the masking by keys missed it.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import write_tree

VALUE = "HUNTER2Value"
COLUMN_VALUE = "kafkaSECRETcol"
FILES = {
    "flinkx.yaml": f"engine: flink\nvariables:\n  db_password: {VALUE}\n",
    "projects/p/project.yaml": f"name: p\nvariables:\n  kafka_secret: {COLUMN_VALUE}\n",
    "projects/p/tables/src.yaml": "name: src\ntype: datagen\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: datagen}\n",
    "projects/p/tables/snk.yaml": "name: snk\ntype: blackhole\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: blackhole}\n",
    "projects/p/tasks/t.sql": "INSERT INTO snk SELECT id FROM ${db_password};\nINSERT INTO snk SELECT ${kafka_secret} FROM src;\n",
}
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]


def flinkx(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flinkx_build", *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def _shows_no_value(text: str, where: str) -> None:
    assert VALUE not in text and COLUMN_VALUE not in text, f"{where} shows a credential variable's value:\n{text}"


def test_lint_in_every_format_masks_a_credential_variable_used_as_a_name(tmp_path):
    ws = write_tree(tmp_path / "ws", FILES)
    for fmt in ("human", "json", "sarif", "github"):
        done = flinkx("lint", "--no-planner", "--format", fmt, ".", cwd=ws)
        assert done.returncode == 1, (fmt, done.stderr)
        _shows_no_value(done.stdout + done.stderr, f"lint --format {fmt}")
        assert "FX130" in done.stdout and "FX401" in done.stdout, (fmt, done.stdout)  # still found, at the same tokens
    human = flinkx("lint", "--no-planner", ".", cwd=ws).stdout
    assert "unknown table '******'" in human, human


def test_the_impact_comment_and_the_docs_site_mask_it(tmp_path):
    ws = write_tree(tmp_path / "ws", {**FILES, "projects/p/tasks/t.sql": "INSERT INTO snk SELECT id FROM src;\n"})
    subprocess.run(["git", "init", "-q", str(ws)], check=True)
    subprocess.run([*GIT, "-C", str(ws), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(ws), "commit", "-qm", "base"], check=True)
    (ws / "projects/p/tasks/t.sql").write_text(FILES["projects/p/tasks/t.sql"], encoding="utf-8")
    subprocess.run([*GIT, "-C", str(ws), "commit", "-qam", "head"], check=True)
    for fmt in ("markdown", "json", "text"):
        done = flinkx("impact", ".", "--base", "HEAD~1", "--format", fmt, cwd=ws)
        assert done.returncode in (0, 1), (fmt, done.stderr)
        _shows_no_value(done.stdout + done.stderr, f"impact --format {fmt}")
        if fmt == "json":
            json.loads(done.stdout)  # still one JSON document
    site = tmp_path / "site"
    done = flinkx("docs", ".", "--out", str(site), cwd=ws)
    assert done.returncode in (0, 1), done.stderr
    _shows_no_value(done.stdout + done.stderr, "docs")
    files = [p for p in site.rglob("*") if p.is_file()]
    assert files
    for path in files:
        _shows_no_value(str(path.relative_to(site)), "a docs site file name")
        _shows_no_value(path.read_text(encoding="utf-8", errors="replace"), f"docs site file {path.name}")
