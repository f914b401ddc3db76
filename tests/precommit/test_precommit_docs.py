"""docs/pre-commit.md, followed as written.

The tests take the doc's code blocks as they are: the .pre-commit-config.yaml
snippets (only `repo:` and `rev:` are replaced, by the snapshot of this
checkout), the .gitignore lines, and the shell commands, run verbatim (but
`pip install pre-commit`: it is installed). The hooks then run from
`git commit`, through the git hook `pre-commit install` wrote.
"""
from __future__ import annotations

import io
import re
import shlex

import pytest
from pchelpers import MINI
from pchelpers import MINI_LOAD
from pchelpers import MINI_REFUNDS
from pchelpers import REPO
from pchelpers import break_mini
from pchelpers import copy_workspace
from pchelpers import failed
from pchelpers import has_line
from pchelpers import passed
from ruamel.yaml import YAML

DOC = REPO / "docs" / "pre-commit.md"
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)\n(?P<body>.*?)^(?P=indent)```", re.M | re.S)


def code_blocks(lang: str) -> list[str]:
    out = []
    for m in FENCE.finditer(DOC.read_text(encoding="utf-8")):
        if m.group("lang") == lang:
            indent = m.group("indent")
            out.append("".join(line[len(indent):] if line.startswith(indent) else line for line in m.group("body").splitlines(True)))
    return out


def config_block(marker: str) -> str:
    """The YAML snippet holding `marker`."""
    found = [b for b in code_blocks("yaml") if "repos:" in b and marker in b]
    assert len(found) == 1, f"docs/pre-commit.md: expected one yaml block with {marker!r}, found {len(found)}"
    return found[0]


def substituted(snippet: str, hook_repo) -> str:
    """The doc's config with `repo:` and `rev:` pointing at the snapshot of this checkout."""
    yaml = YAML()
    data = yaml.load(snippet)
    (entry,) = data["repos"]
    assert entry["repo"].startswith("https://"), "the doc's snippet should show a URL placeholder"
    entry["repo"] = str(hook_repo.path)
    entry["rev"] = hook_repo.rev
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def shell_lines(block: str) -> list[list[str]]:
    lines = []
    for raw in block.splitlines():
        words = shlex.split(raw, comments=True)
        if words and words[:2] != ["pip", "install"]:
            lines.append(words)
    return lines


def block_with(lang: str, command: str) -> str:
    found = [b for b in code_blocks(lang) if command in b]
    assert found, f"docs/pre-commit.md: no {lang} block with {command!r}"
    return found[0]


def follow(repo, block: str, label: str) -> list:
    return [repo.run(*words, label=f"{label}: {' '.join(words)}") for words in shell_lines(block)]


def test_setup_as_documented(make_repo, installed_hooks):
    repo = make_repo(MINI, gitignore=False)
    # 1. the config  2. the .gitignore lines  3. the install commands
    repo.write(".pre-commit-config.yaml", substituted(config_block("stages: [manual]"), installed_hooks))
    (gitignore,) = code_blocks("gitignore")
    repo.write(".gitignore", gitignore)
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "add pre-commit")
    (install,) = [r for r in follow(repo, block_with("bash", "pre-commit install"), "doc setup")]
    assert install.returncode == 0, install.describe()
    assert (repo.root / ".git" / "hooks" / "pre-commit").is_file()
    head = repo.git("rev-parse", "HEAD")

    # a commit with the three mistakes is refused, with the lines the doc shows
    break_mini(repo)
    repo.git("add", "-A")
    refused = repo.run("git", "commit", "-m", "load refunds", label="doc: git commit with FX01/FX02/FX130")
    assert refused.returncode != 0, refused.describe()
    assert repo.git("rev-parse", "HEAD") == head
    assert failed(refused, "flinkx lint"), refused.describe()
    (sample,) = [b for b in code_blocks("text") if "- hook id: flinkx-lint" in b]
    for line in sample.splitlines():
        if re.match(r"^\S+:\d+:\d+: FX", line) or line.startswith("flinkx: "):
            assert has_line(refused, line), f"the doc shows {line!r}, the commit printed:\n{refused.describe()}"
    assert "flinkx fix" not in refused.output  # manual stage: not run on commit

    # fix on demand, look, stage; fix the unknown table by hand; commit
    fix_run, diff_run, add_run = follow(repo, block_with("bash", "flinkx-fix --hook-stage manual"), "doc fix")
    assert fix_run.returncode == 1 and "files were modified by this hook" in fix_run.output, fix_run.describe()
    assert "AS `value`" in diff_run.output and "'connector' = 'print'" in diff_run.output, diff_run.describe()
    assert add_run.returncode == 0
    repo.replace(MINI_REFUNDS, "ods.order_refunds", "ods.order_events")
    repo.git("add", "-A")
    accepted = repo.run("git", "commit", "-m", "load refunds", label="doc: git commit after the fix")
    assert accepted.returncode == 0, accepted.describe()
    assert passed(accepted, "flinkx lint") and passed(accepted, "flinkx build --check"), accepted.describe()
    assert repo.git("rev-parse", "HEAD") != head

    # the whole repository
    (all_files,) = follow(repo, block_with("bash", "pre-commit run --all-files"), "doc")
    assert all_files.returncode == 0, all_files.describe()
    assert repo.git("status", "--porcelain") == ""  # cache and build output stay ignored


def test_workspace_in_a_folder_as_documented(make_repo, installed_hooks):
    repo = make_repo(MINI, subdir="warehouse")
    repo.write(".pre-commit-config.yaml", substituted(config_block("args: [warehouse]"), installed_hooks))
    repo.commit_all("add pre-commit")
    follow(repo, block_with("bash", "pre-commit install"), "doc setup")

    repo.replace(f"warehouse/{MINI_LOAD}", "WHERE amount > 0", "WHERE amount > 0 AND channel <> 'test'")
    repo.git("add", "-A")
    ok = repo.run("git", "commit", "-m", "filter test orders", label="doc (folder): clean git commit")
    assert ok.returncode == 0, ok.describe()
    assert passed(ok, "flinkx lint") and passed(ok, "flinkx build --check"), ok.describe()

    # renaming a meta table passes lint (the YAML is fine) but not the build: its task still uses it
    repo.replace("warehouse/projects/dwd/tables/dwd_orders.yaml", "name: dwd_orders", "name: dwd_order_facts")
    repo.git("add", "-A")
    refused = repo.run("git", "commit", "-m", "rename", label="doc (folder): git commit renaming a table")
    assert refused.returncode != 0, refused.describe()
    assert passed(refused, "flinkx lint") and failed(refused, "flinkx build --check"), refused.describe()
    assert has_line(refused, f"warehouse/{MINI_LOAD}:4:13: FX130 unknown table 'dwd_orders' in project 'dwd'"), refused.describe()


def test_folder_without_args_says_what_is_missing(make_repo, installed_hooks):
    """The first snippet as is (args default `.`) with the workspace in a folder: a clear error."""
    repo = make_repo(MINI, subdir="warehouse")
    repo.write(".pre-commit-config.yaml", substituted(config_block("stages: [manual]"), installed_hooks))
    repo.commit_all("add pre-commit")
    repo.replace(f"warehouse/{MINI_LOAD}", "WHERE amount > 0", "WHERE amount > 1")
    repo.git("add", "-A")
    result = repo.run("pre-commit", "run", "flinkx-build", label="flinkx-build without args, workspace in a folder")
    assert result.returncode != 0
    assert "- exit code: 2" in result.output
    assert "no flinkx.yaml here or in any parent folder" in result.output, result.describe()


@pytest.mark.parametrize("per_workspace", [False, True], ids=["one-entry", "one-entry-per-workspace"])
def test_several_workspaces_as_documented(make_repo, installed_hooks, per_workspace):
    repo = make_repo(None)
    for folder in ("realtime", "offline"):
        copy_workspace(MINI, repo.root / folder)
    snippet = config_block("realtime") if per_workspace else config_block("stages: [manual]")
    repo.write(".pre-commit-config.yaml", substituted(snippet, installed_hooks))
    repo.commit_all("two workspaces")
    for folder in ("realtime", "offline"):
        repo.replace(f"{folder}/{MINI_LOAD}", "WHERE amount > 0", "WHERE amount > 1")
    repo.git("add", "-A")

    result = repo.run("pre-commit", "run", "flinkx-lint", label=f"flinkx-lint, two workspaces ({'per workspace' if per_workspace else 'one entry'})")

    if per_workspace:
        assert result.returncode == 0, result.describe()
        assert passed(result, "flinkx lint (realtime)") and passed(result, "flinkx lint (offline)"), result.describe()
        repo.replace(f"offline/{MINI_LOAD}", "amount AS order_amount", "amount AS value")
        repo.git("add", "-A")
        broken = repo.run("pre-commit", "run", "flinkx-lint", label="flinkx-lint per workspace, FX01 in offline")
        assert passed(broken, "flinkx lint (realtime)") and failed(broken, "flinkx lint (offline)"), broken.describe()
        assert has_line(broken, f"offline/{MINI_LOAD}:8:13: FX01 "), broken.describe()
    else:
        # one entry: flinkx groups the files by workspace and lints each in its own context
        assert result.returncode == 0, result.describe()
        repo.replace(f"offline/{MINI_LOAD}", "amount AS order_amount", "amount AS value")
        repo.git("add", "-A")
        broken = repo.run("pre-commit", "run", "flinkx-lint", label="flinkx-lint one entry, FX01 in offline")
        assert broken.returncode != 0
        assert has_line(broken, f"offline/{MINI_LOAD}:8:13: FX01 "), broken.describe()
