"""Property: whatever happens to one file of the example workspace, flinkx answers in one-line findings.

Hypothesis mutates one SQL or YAML file of a copy of the example workspace
(byte flips, truncation, inserted brackets, quotes, comments, hints, `${`,
anchors and tags, duplicated or deleted lines, re-indented lines) and runs
build, lint (the file alone, as the pre-commit hook does), explain and graph
in-process. Each must end with exit 0, 1 or 2, never an internal error,
within a few seconds, printing only `path:line:col: FXnnn message` lines
and `flinkx:` summaries (`harness.problems`).

The workspace is copied once; each example changes one file and puts it
back. The parse cache is warmed once for the untouched files and every
entry a run adds is deleted after it, so the mutated file is parsed cold by
every command (the issue's SELECT( crash only showed on a cold cache).

Runs: 200 examples by default (CI); `-m slow` or FLINKX_FUZZ=slow runs
10,000 (about an hour on two cores). Failures hypothesis finds are fixed
and kept in corpus/ as regression cases.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tests.conftest import EXAMPLE
from tests.robustness.harness import problems
from tests.robustness.harness import run

INSERTS = [
    "(", ")", "((", "))", "[", "]", "{", "}", "'", '"', "`", "''", "/*", "*/", "/*+", "/*+ OPTIONS(", "--", "-- x\n",
    "${", "${x}", "${env}", "}", ";", ":", ": ", "- ", "? ", "&a ", "*a", "<<: *a\n", "!!python/object:os.system ",
    "!tag ", "---\n", "...\n", "|", ">", "#", "%", "@", "\t", "\r", "\r\n", "\n", "  ", "\x00", "\x1b", "é", "订单",
    "\ufeff", "\\", "\\u", "9" * 60, "SELECT", "INSERT INTO", "BEGIN STATEMENT SET;", "END;", "SET x.y = ", "AS", ",",
    "=", "true", "null", "~", "1e999",
]


@st.composite
def mutations(draw, data: bytes) -> bytes:
    """One to three edits of a file's bytes."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "truncate", "insert", "duplicate_line", "delete_line", "indent", "text"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "insert":
            data = data[:at] + draw(st.sampled_from(INSERTS)).encode() + data[at:]
        elif kind == "text":
            data = data[:at] + draw(st.text(max_size=12)).encode("utf-8", "surrogatepass") + data[at:]
        else:
            lines = data.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "duplicate_line":
                lines.insert(i, lines[i])
            elif kind == "delete_line":
                del lines[i]
            else:
                lines[i] = draw(st.sampled_from([b" ", b"  ", b"   ", b"\t"])) + lines[i]
            data = b"\n".join(lines)
    return data


@pytest.fixture(scope="module")
def fuzz_ws(tmp_path_factory):
    ws = tmp_path_factory.mktemp("fuzz") / "ws"
    shutil.copytree(EXAMPLE, ws, ignore=shutil.ignore_patterns("build", ".flinkx-cache", "engines"))
    files = sorted(p.relative_to(ws).as_posix() for p in ws.rglob("*") if p.suffix in (".sql", ".yaml") and p.is_file())
    return ws, files


def _explain_target(rel: str) -> str:
    parts = Path(rel).parts
    if parts[0] == "projects" and len(parts) > 3 and parts[2] == "tasks":
        return f"{parts[1]}/{Path(*parts[3:]).with_suffix('').as_posix()}"
    return "dwd/orders/enrich_orders"


def _check_one_mutation(cli, ws: Path, rel: str, mutated: bytes) -> None:
    path = ws / rel
    original = path.read_bytes()
    cache = ws / ".flinkx-cache"
    warm = {p for p in cache.rglob("*")} if cache.exists() else set()
    path.write_bytes(mutated)
    wrong = []
    try:
        for args in (("build", ".", "--check"), ("lint", ".", rel), ("explain", ".", _explain_target(rel)), ("graph", ".")):
            wrong += problems(run(cli, ws, *args))
            for entry in sorted(cache.rglob("*"), reverse=True) if cache.exists() else []:
                if entry not in warm and entry.is_file():  # keep the mutated file cold for the next command
                    entry.unlink()
    finally:
        path.write_bytes(original)
    assert not wrong, f"{rel} mutated to {mutated[:300]!r}...:\n" + "\n".join(wrong)


def _property(cli, fuzz_ws, examples: int):
    ws, files = fuzz_ws
    run(cli, ws, "build", ".", "--check")  # warm the cache for every untouched file

    @settings(max_examples=examples, deadline=None, derandomize=examples <= 500,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(st.data())
    def check(data):
        rel = data.draw(st.sampled_from(files), label="file")
        mutated = data.draw(mutations((ws / rel).read_bytes()), label="mutated")
        _check_one_mutation(cli, ws, rel, mutated)

    check()


def test_a_mutated_workspace_file_gives_findings_not_tracebacks(cli, fuzz_ws):
    _property(cli, fuzz_ws, examples=int(os.environ.get("FLINKX_FUZZ_EXAMPLES", "200")))


@pytest.mark.slow
def test_ten_thousand_mutations(cli, fuzz_ws, request):
    if "slow" not in (request.config.option.markexpr or "") and os.environ.get("FLINKX_FUZZ") != "slow":
        pytest.skip("10,000 examples take about an hour: run with -m slow or FLINKX_FUZZ=slow")
    _property(cli, fuzz_ws, examples=10_000)
