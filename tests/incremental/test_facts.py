"""Every fact of the incremental layer (`flinkx_build/incremental/facts.py`) is made again exactly when one of its inputs changes.

For each row of `FACTS`, one case per input: a small real workspace is run
(build, lint, a load), one input is edited, the same run is made again, and the
store's tally (`incremental/store.py`) says how many of the fact were made anew
(stored). An edit of anything that is not an input must make none. Facts a run
here cannot make without a JVM or a git history (the planner's, the dependency
index, the docs page) are held to the same rule through their keys.
"""
from __future__ import annotations

import dataclasses
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

import flinkx_build
from flinkx_build.cache_version import compute_code_version
from flinkx_build.cli import main
from flinkx_build.incremental import facts as F
from flinkx_build.incremental.store import STORED
from flinkx_build.incremental.store import TALLY
from flinkx_build.lint.planner_pass import verdict_key
from flinkx_build.load.workspace import load_workspace
from flinkx_build.load.yaml_cache import YamlCache
from flinkx_build.load.yaml_io import load_yaml
from flinkx_build.semantic.project_index import project_key
from flinkx_build.validate.contract import CompiledStatement
from flinkx_build.validate.contract import ScriptToValidate
from flinkx_build.validate.contract import UdfStub
from click.testing import CliRunner

SOURCE = "type: datagen\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: datagen, rows-per-second: '1'}\n"
SINK = "type: blackhole\ncolumns:\n  - {name: id, type: INT}\nwith: {connector: blackhole}\n"
WS = {
    "flinkx.yaml": "engine: flink\n",
    "projects/a/project.yaml": "name: a\nvariables:\n  tag: one\n",
    "projects/a/tables/src.yaml": SOURCE,
    "projects/a/tables/src2.yaml": SOURCE,
    "projects/a/functions/twice.yaml": "name: twice\nclass: com.example.Twice\nreturns: INT\n",
    "projects/a/tasks/t1.sql": "INSERT INTO b.snk SELECT twice(id) FROM src;\n",
    "projects/b/project.yaml": "name: b\n",
    "projects/b/tables/snk.yaml": SINK,
    "projects/b/tables/other.yaml": SINK,
    "projects/b/tasks/t2.sql": "INSERT INTO other SELECT id FROM a.src2;\n",
}


def _append(rel: str, text: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / rel
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")
    return edit


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(root: Path) -> None:
        path = root / rel
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new), encoding="utf-8")
    return edit


EDITS: dict[str, Callable[[Path], None]] = {
    "t1's text": _append("projects/a/tasks/t1.sql", "-- a comment\n"),
    "t2's text": _append("projects/b/tasks/t2.sql", "-- a comment\n"),
    "src's YAML": _replace("projects/a/tables/src.yaml", "'1'", "'2'"),
    "twice's YAML": _replace("projects/a/functions/twice.yaml", "com.example.Twice", "com.example.Twice2"),
    "project a's variables": _replace("projects/a/project.yaml", "tag: one", "tag: two"),
    "flinkx.yaml's lint settings": _append("flinkx.yaml", "lint:\n  FX01: off\n"),
    "what t2 reads": _replace("projects/b/tasks/t2.sql", "a.src2", "a.src"),
    "nothing": lambda root: None,
}

# fact -> the run that makes it, and how many of it each edit makes anew (an edit left out: none).
# The counts are the facts' inputs: a task's parse reads its text and its project's variables; its summary
# also every table and function it spells (their load keys hold their project's variables); and so on.
BUILD, LINT, LOAD = ("build", "."), ("lint", "."), "load"
MADE: dict[F.Fact, tuple[object, dict[str, int]]] = {
    F.TASK_PARSE: (BUILD, {"t1's text": 1, "t2's text": 1, "project a's variables": 1, "what t2 reads": 1}),
    F.TASK_SUMMARY: (BUILD, {"t1's text": 1, "t2's text": 1, "src's YAML": 1, "twice's YAML": 1,
                             "project a's variables": 2, "what t2 reads": 1, "flinkx.yaml's lint settings": 2}),
    F.LOADED_FILES: (LOAD, {"src's YAML": 1, "twice's YAML": 1, "project a's variables": 4}),  # a's header, tables, function
    F.TASK_LIMITS: (LOAD, {"t1's text": 1, "t2's text": 1, "what t2 reads": 1}),
    F.PARSED_YAML: (LOAD, {"src's YAML": 1, "twice's YAML": 1, "project a's variables": 1}),  # (flinkx.yaml is not cached)
    F.RULE_PASS: (LINT, {"t1's text": 1, "t2's text": 1, "project a's variables": 1, "what t2 reads": 1,
                         "flinkx.yaml's lint settings": 2}),
    F.ACYCLIC_GRAPH: (BUILD, {"what t2 reads": 1}),
    F.WHOLE_RUN: (BUILD, {edit: 1 for edit in EDITS if edit != "nothing"}),
    F.BUILD_RECORD: (BUILD, {edit: 1 for edit in EDITS if edit != "nothing"}),  # (a replay changes nothing to record)
}


@pytest.fixture
def ws(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "ws"
    for rel, text in WS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _made(fact: F.Fact, run: object, root: Path) -> int:
    """How many of `fact` one `run` stored anew."""
    before = TALLY[fact.name, STORED]
    if run == LOAD:
        load_workspace(root)
    else:
        result = CliRunner().invoke(main, list(run), catch_exceptions=False)  # type: ignore[arg-type]
        assert result.exit_code in (0, 1), result.output
    return TALLY[fact.name, STORED] - before


def test_every_fact_is_in_a_case():
    held_by_keys = {F.PLANNER_VERDICT, F.PLANNER_ACCEPTED, F.DEPENDENCY_INDEX, F.TASK_PAGE, F.CODE_VERSION}
    assert set(MADE) | held_by_keys == set(F.FACTS)


@pytest.mark.parametrize("edit", list(EDITS))
@pytest.mark.parametrize("fact", list(MADE), ids=[f.name for f in MADE])
def test_a_fact_is_made_again_exactly_when_an_input_changed(ws, fact, edit):
    run, expected = MADE[fact]
    _made(fact, run, ws)  # everything made once
    EDITS[edit](ws)
    assert _made(fact, run, ws) == expected.get(edit, 0)
    assert _made(fact, run, ws) == 0  # and again with nothing changed: every fact is found


def test_the_planner_s_verdict_is_keyed_by_the_compiled_script_and_the_release():
    script = ScriptToValidate("a/t1", "build/a/t1.sql", (CompiledStatement("INSERT INTO x SELECT 1", 1, 1, "insert"),),
                              (UdfStub("twice", "INT", "scalar"),), "stream")
    key = verdict_key(script, "1.20.5")
    inputs = [dataclasses.replace(script, statements=(CompiledStatement("INSERT INTO x SELECT 2", 1, 1, "insert"),)),
              dataclasses.replace(script, udfs=(UdfStub("twice", "BIGINT", "scalar"),)),
              dataclasses.replace(script, mode="batch")]
    assert all(verdict_key(changed, "1.20.5") != key for changed in inputs) and verdict_key(script, "2.3.0") != key
    # the task's name and where its file is written are not inputs: the same script elsewhere is the same verdict
    assert verdict_key(dataclasses.replace(script, key="b/t9", compiled_path="build/b/t9.sql"), "1.20.5") == key


def test_the_dependency_index_is_keyed_by_its_folder_s_files_and_flinkx_yaml():
    files = [("project.yaml", "1" * 40), ("tasks/t1.sql", "2" * 40)]
    key = project_key("a", "c" * 40, files)
    assert project_key("a", "d" * 40, files) != key  # flinkx.yaml
    assert project_key("a", "c" * 40, [files[0], ("tasks/t1.sql", "3" * 40)]) != key  # a file's content
    assert project_key("a", "c" * 40, [*files, ("tasks/t2.sql", "3" * 40)]) != key  # a file added
    assert project_key("b", "c" * 40, files) != key  # the folder
    assert project_key("a", "c" * 40, list(reversed(files))) == key  # the listing's order is not an input


def test_the_code_version_is_made_again_when_a_file_of_the_package_changes(tmp_path):
    package = tmp_path / "pkg"
    shutil.copytree(Path(flinkx_build.__file__).parent / "incremental", package / "incremental",
                    ignore=shutil.ignore_patterns("__pycache__"))
    store, unrelated = tmp_path / "store", tmp_path / "elsewhere.py"
    before = TALLY[F.CODE_VERSION.name, STORED]
    first = compute_code_version([package], store)
    unrelated.write_text("x = 1\n")
    assert compute_code_version([package], store) == first and TALLY[F.CODE_VERSION.name, STORED] == before + 1
    (package / "incremental" / "facts.py").write_text("# changed\n", encoding="utf-8")
    assert compute_code_version([package], store) != first and TALLY[F.CODE_VERSION.name, STORED] == before + 2


def test_the_docs_page_is_keyed_by_the_task_s_summary_and_the_workspace_name(ws):
    from flinkx_build.commands.common import open_session
    from flinkx_build.site.task_pages import _key

    session = open_session(ws)
    t1, t2 = sorted(session.tasks(), key=lambda t: t.key)
    before = {t.key: _key(session, t) for t in (t1, t2)}
    EDITS["t1's text"](ws)
    session = open_session(ws)
    after = {t.key: _key(session, t) for t in session.tasks()}
    assert after[t1.key] != before[t1.key] and after[t2.key] == before[t2.key]
    (ws / "flinkx.yaml").write_text("engine: flink\nname: renamed\n", encoding="utf-8")
    session = open_session(ws)
    assert all(_key(session, t) != after[t.key] for t in session.tasks())  # the name, and flinkx.yaml's settings


def test_the_parsed_yaml_is_keyed_by_the_file_s_bytes(tmp_path):
    cache, a, b = YamlCache(tmp_path / "cache"), tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("x: 1\n")
    b.write_text("y: 1\n")
    stored = Counter()
    for path in (a, b, a):
        before = TALLY[F.PARSED_YAML.name, STORED]
        load_yaml(path, path.name, cache)
        stored[path.name] += TALLY[F.PARSED_YAML.name, STORED] - before
    assert stored == {"a.yaml": 1, "b.yaml": 1}


def test_docs_architecture_shows_every_fact():
    page = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = page.split("### The facts")[1].split("\n### ")[0]
    for fact in F.FACTS:
        assert f"| {fact.name} | `{fact.format}` v{fact.version} |" in table, fact.name
