"""Machine formats: help links per code (JSON, SARIF), SARIF locations, GitHub workflow-command escaping."""
from __future__ import annotations

import json
import re
from pathlib import Path

from flinkx_build.errors import CODES
from flinkx_build.errors import Diagnostic
from flinkx_build.lint.formats import _escape_data
from flinkx_build.lint.formats import _escape_property
from flinkx_build.lint.formats import github_command
from flinkx_build.lint.formats import help_url

DOCS = Path(__file__).resolve().parents[2] / "docs" / "error-codes.md"


def github_anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, spaces to dashes, punctuation dropped."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_help_link_lands_on_a_heading_of_the_docs_page(monkeypatch):
    monkeypatch.delenv("FLINKX_DOCS_URL", raising=False)
    anchors = {github_anchor(line[3:]) for line in DOCS.read_text(encoding="utf-8").splitlines() if line.startswith("## ")}
    for code in CODES:
        url = help_url(code)
        page, _, anchor = url.partition("#")
        assert page.endswith("docs/error-codes.md") and anchor in anchors, url


def test_the_docs_base_url_is_configurable(monkeypatch):
    monkeypatch.setenv("FLINKX_DOCS_URL", "https://flinkx.example.test/errors.html")
    assert help_url("FX106") == "https://flinkx.example.test/errors.html#fx106"


def test_sarif_has_help_uri_and_uri_base_id(lint_ws, cli, monkeypatch):
    monkeypatch.setenv("FLINKX_DOCS_URL", "https://flinkx.example.test/docs/error-codes.md")
    root = lint_ws("SELECT id AS value FROM src;\n")
    result = cli("lint", ".", "--format", "sarif", cwd=root)
    log = json.loads(result.stdout)
    run = log["runs"][0]
    rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert rules["FX01"]["helpUri"] == "https://flinkx.example.test/docs/error-codes.md#fx01"
    assert rules["FX106"]["defaultConfiguration"] == {"level": "warning"}
    for res in run["results"]:
        loc = res["locations"][0]["physicalLocation"]["artifactLocation"]
        assert loc["uriBaseId"] == "%SRCROOT%" and not loc["uri"].startswith("/")
        assert run["tool"]["driver"]["rules"][res["ruleIndex"]]["id"] == res["ruleId"]


def test_github_escapes_properties_and_message_and_prints_the_code_once():
    diag = Diagnostic("dir,with:odd%chars/t.sql", 3, 7, "FX130", "unknown table 'a%b'", "did you mean 'x,y'?")
    line = github_command(diag)
    assert line == "::error file=dir%2Cwith%3Aodd%25chars/t.sql,line=3,col=7,title=FX130::unknown table 'a%25b' (did you mean 'x,y'?)"
    assert line.count("FX130") == 1
    # line breaks cannot reach a Diagnostic's message any more, but the escaping handles them
    assert _escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert _escape_property("a%b:c,d\ne") == "a%25b%3Ac%2Cd%0Ae"


def test_github_format_from_the_cli(make_workspace, cli):
    root = make_workspace({
        "projects/p/tables/src.yaml": "type: datagen\ncolumns: [{name: id, type: STRING}]\nwith: {connector: datagen}\n",
        "projects/p/tasks/t.sql": "SELECT id FROM srcc;\n",
    }, name="a,b")
    result = cli("lint", str(root), "--format", "github")
    assert result.exit_code == 1
    [line] = result.stdout.splitlines()
    assert re.fullmatch(r"::error file=\S*a%2Cb/projects/p/tasks/t\.sql,line=1,col=16,title=FX130::unknown table 'srcc'.*", line), line
    assert line.count("FX130") == 1


def test_info_findings_are_notes_and_notices():
    from flinkx_build.lint.formats import sarif

    note = Diagnostic("t.sql", 1, 1, "FX130", "just so you know", severity="info")
    assert github_command(note).startswith("::notice file=t.sql,")
    log = sarif([note])
    assert log["runs"][0]["results"][0]["level"] == "note"
