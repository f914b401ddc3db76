"""One convention for every command: findings (or the document) on stdout, summaries on stderr; -q and -v."""
from __future__ import annotations

import json
import re

import pytest

from tests.cli.conftest import CLEAN_TASK

FINDING = re.compile(r"^\S+:\d+:\d+: FX\d+ ")


def finding_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if FINDING.match(line)]


def test_version(cli):
    for flag in ("-V", "--version"):
        result = cli(flag)
        assert result.exit_code == 0 and re.fullmatch(r"flinkx, version \d+\.\d+\.\d+\n", result.stdout)


def test_lint_findings_on_stdout_summary_on_stderr(lint_ws, cli):
    root = lint_ws()
    result = cli("lint", str(root))
    assert result.exit_code == 1
    assert len(finding_lines(result.stdout)) == 5 and result.stdout.count("\n") == 5  # only findings
    assert result.stderr == "flinkx: 4 error(s), 1 warning(s)\n"
    warned = cli("lint", str(lint_ws(CLEAN_TASK, name="warned")))  # only the FX106 warning of src.yaml
    assert warned.exit_code == 0 and len(finding_lines(warned.stdout)) == 1
    assert warned.stderr == "flinkx: 0 error(s), 1 warning(s)\n"
    clean = cli("lint", str(lint_ws(CLEAN_TASK, name="clean")), "--ignore", "FX106")
    assert (clean.exit_code, clean.stdout, clean.stderr) == (0, "", "flinkx: clean\n")


def test_build_errors_on_stdout_summary_on_stderr(lint_ws, cli):
    root = lint_ws("INSERT INTO out_t SELECT id FROM srcc;\n")
    result = cli("build", str(root))
    assert result.exit_code == 1
    assert any(": FX130 unknown table 'srcc'" in line for line in finding_lines(result.stdout))
    assert not finding_lines(result.stderr) and result.stderr.startswith("flinkx: ")


def test_build_success_summary_on_stderr_and_warnings_on_stdout(lint_ws, cli):
    result = cli("build", str(lint_ws(CLEAN_TASK)), "--check")
    assert result.exit_code == 0
    assert [line.split(": ")[1].split()[0] for line in finding_lines(result.stdout)] == ["FX106"]  # a warning is a finding
    assert re.fullmatch(r"flinkx: 1 tasks compile cleanly \(\d+\.\d s\); nothing written \(--check\)\n", result.stderr)


def test_graph_document_on_stdout_findings_on_stderr(lint_ws, cli):
    """The one exception, by design: graph's stdout is a document, so its findings go to stderr."""
    root = lint_ws("INSERT INTO out_t SELECT id FROM srcc;\n")
    result = cli("graph", str(root), "--format", "json")
    assert result.exit_code == 1
    json.loads(result.stdout)  # still parseable
    assert any(": FX130 " in line for line in finding_lines(result.stderr))


def test_explain_findings_on_stdout(lint_ws, cli):
    root = lint_ws("INSERT INTO out_t SELECT id FROM srcc;\n")
    result = cli("explain", str(root), "p/t")
    assert result.exit_code == 1
    assert finding_lines(result.stdout) and not finding_lines(result.stderr)


def test_usage_errors_on_stderr(lint_ws, cli):
    result = cli("lint", str(lint_ws()), "--select", "ZZ9")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "flinkx: error: --select ZZ9: no code starts with 'ZZ9' (see docs/error-codes.md)\n"


@pytest.mark.parametrize("where", ["group", "command"])
def test_quiet_drops_the_summary_only(lint_ws, cli, where):
    root = lint_ws()
    args = ["-q", "lint", str(root)] if where == "group" else ["lint", "--quiet", str(root)]
    result = cli(*args)
    assert result.exit_code == 1
    assert len(finding_lines(result.stdout)) == 5
    assert result.stderr == ""
    built = cli("build", "-q", str(lint_ws(CLEAN_TASK, name="quiet")))
    assert built.exit_code == 0 and built.stderr == ""  # no "flinkx: built ..." line


@pytest.mark.parametrize("where", ["group", "command"])
def test_verbose_adds_progress_on_stderr(lint_ws, cli, where):
    root = lint_ws(CLEAN_TASK)
    args = ["-v", "build", str(root)] if where == "group" else ["build", "--verbose", str(root)]
    result = cli(*args)
    assert result.exit_code == 0
    lines = result.stderr.splitlines()
    assert any(line.startswith("wrote ") and line.endswith("p/t.sql") for line in lines)
    assert lines[-1].startswith("flinkx: built 1 tasks")
    assert "wrote" not in result.stdout
