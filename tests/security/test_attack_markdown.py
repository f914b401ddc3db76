"""Issue 26 item 8: the impact report posted as a PR comment shows user text, never markup.

A pull request renames a column read downstream to `<img src=...>` and adds one named `<!--`
with backticks and pipes: the real `flinkx impact --format markdown` must print them escaped
(entities for `<`, `>` and `&`; backslashes before the backticks, pipes and brackets), so GitHub
neither loads the image nor hides the rest of the comment nor breaks the table.
"""
from __future__ import annotations

import pytest

from flinkx_build.markdown_text import md_code
from flinkx_build.markdown_text import md_fence
from flinkx_build.markdown_text import md_text
from tests.graph.gitrepo import make_repo

IMG = "<img src=https://evil.example/x.png>"
COMMENT = "<!-- x`y|z [a](https://evil.example)"


@pytest.fixture
def hostile(tmp_path):
    repo = make_repo(tmp_path / "repo", "")
    repo.edit("projects/ods/tables/orders.yaml", "  - {name: channel, type: STRING, comment: \"app | web\"}\n",
              f"  - {{name: \"{IMG}\", type: STRING}}\n  - {{name: \"{COMMENT}\", type: STRING}}\n")
    return repo


def test_impact_markdown_escapes_column_names(hostile, cli):
    result = cli("impact", ".", "--base", "HEAD", "--format", "markdown", cwd=hostile.root)
    md = result.stdout
    assert "## flinkx impact" in md and "channel" in md, result.lines
    assert "<img" not in md and "<!--" not in md, md
    assert "&lt;img src=https://evil.example/x.png&gt;" in md, md
    assert "&lt;!-- x\\`y\\|z \\[a\\](https://evil.example)" in md, md
    rows = [line for line in md.splitlines() if line.startswith("| ") and "evil" in line]
    assert rows and all(line.replace("\\|", "").count("|") == 5 for line in rows), rows  # 4 cells: no `|` of a name splits one


def test_the_helpers_escape_for_their_place():
    assert md_text("a<b>&c|d`e[f]\ng") == "a&lt;b&gt;&amp;c\\|d\\`e\\[f\\] g"
    assert md_text("snake_case * text") == "snake_case * text"
    assert md_code("a`b|c") == "``a`b\\|c``" and md_code("`x") == "`` `x ``"
    assert md_fence(["```", "x"]) == "````" and md_fence(["plain"]) == "```"


def test_the_deploy_plan_markdown_shows_hostile_names_as_text():
    """`flinkx deploy --plan --format markdown` is posted like impact's report: a task key or a
    refusal that quotes PR text must not become HTML, a comment or a broken table."""
    from flinkx_build.deploy.plan import Action
    from flinkx_build.deploy.plan import Plan
    from flinkx_build.deploy.report import to_markdown

    plan = Plan("ws", "http://127.0.0.1:8081", actions=[Action("p/<img src=x onerror=alert(1)>", "create")],
                skipped=[("p/t`|x", "FX120 <!-- hides the rest | breaks the table")])
    text = to_markdown(plan)
    assert "| create | `p/<img src=x onerror=alert(1)>` |" in text, text  # a code span shows HTML as text
    assert "<!--" not in text and "&lt;!-- hides the rest" in text, text
    assert "``p/t`\\|x``" in text, text  # fenced by more backticks than the key holds
    skipped = next(line for line in text.splitlines() if line.startswith("| skipped"))
    assert skipped.count(" | ") == 3 and "\\|" in skipped, skipped  # one row of four cells
