"""The import contract of flinkx_build: layers from bottom to top, imports only point down or sideways.

The map for people is docs/architecture.md; this file is the one place the layers are written down.
Rules (tests/architecture/import_graph.py): (a) no import from a lower layer to a higher one, (b) no
cycle between packages or top-level modules, (c) no two modules importing each other; imports inside
functions and under TYPE_CHECKING count. Units in one layer may import each other, without a cycle.
"""
from __future__ import annotations

from pathlib import Path

from tests.architecture.import_graph import Import
from tests.architecture.import_graph import module_names
from tests.architecture.import_graph import mutual_pairs
from tests.architecture.import_graph import read_imports
from tests.architecture.import_graph import unit_cycles
from tests.architecture.import_graph import unit_of
from tests.architecture.import_graph import upward_imports

PACKAGE = Path(__file__).resolve().parents[2] / "flinkx_build"

# Bottom to top. A unit is a sub-package (every module under it) or a top-level module.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    # core types, diagnostics, hashing, process and cache plumbing: no knowledge of SQL
    ("core", ("flinkx_build", "paths", "variables", "progress", "noqa", "hashing", "json_codec", "incremental", "process_tricks", "credentials", "errors", "limits",
              "cache_root", "cache_secret", "cache_prune", "cache_entries", "cache_version", "markdown_text", "java_jar",
              "child_process")),
    # what Flink, the engines and the connectors accept: tables of facts
    ("facts", ("engines", "connectors", "flink_data", "engine_settings", "type_text", "flink_types", "targets")),
    # the workspace model: plain dataclasses every stage reads
    ("model", ("workspace_model",)),
    # the planner driver of every target and its stand-ins; imports nothing above the cache root,
    # and the checks and the semantic model ask it which changelog a connector gives
    ("planner", ("validate", "planner")),
    # YAML with positions -> Workspace; the run memo keys a whole run on the files the loader reads
    ("load", ("load", "run_memo")),
    # split, render ${var}, parse with sqlfluff, extract facts
    ("frontend", ("frontend",)),
    ("resolve", ("resolve",)),
    ("semantic", ("semantic",)),
    ("checks", ("checks",)),
    ("compile", ("compile",)),
    ("emit", ("emit",)),
    # one Session per run: load, parse, resolve, analyse, check and compile each task, cached
    ("pipeline", ("pipeline",)),
    # features that read the model
    ("features", ("lint", "graph", "impact", "lineage", "testing", "deploy", "lsp", "site", "upgrade")),
    # the whole-workspace build: every task compiled, with the graph and the workspace findings
    ("workspace_build", ("workspace_build",)),
    # the command line on top
    ("cli", ("commands", "cli", "__main__")),
]

# The imports that break the contract, each `importer -> imported`: why it is there and what would
# remove it. Empty: a new import that breaks the contract is fixed, not listed here.
EXCEPTIONS: dict[str, str] = {}


def _full(unit: str) -> str:
    return unit if unit == "flinkx_build" else f"flinkx_build.{unit}"


LAYER_OF = {_full(unit): rank for rank, (_, units) in enumerate(LAYERS) for unit in units}


def _imports() -> list[Import]:
    return read_imports(PACKAGE)


def _checked(imports: list[Import]) -> list[Import]:
    return [imp for imp in imports if imp.edge not in EXCEPTIONS]


def _where(imp: Import) -> str:
    return f"{imp.path.relative_to(PACKAGE.parent)}:{imp.line}: {imp.edge}"


def test_every_unit_has_a_layer():
    units = {unit_of(module) for module in module_names(PACKAGE)}
    missing = sorted(unit for unit in units if unit not in LAYER_OF)
    assert not missing, f"place these in LAYERS (tests/architecture/test_import_contract.py): {missing}"


def test_no_import_points_up_a_layer():
    found = [_where(imp) for imp in upward_imports(_checked(_imports()), LAYER_OF)]
    assert not found, "imports from a lower layer to a higher one (see docs/architecture.md):\n" + "\n".join(found)


def test_no_cycle_between_packages():
    cycles = unit_cycles(_checked(_imports()))
    assert not cycles, f"packages that import each other round a cycle: {cycles}"


def test_no_two_modules_import_each_other():
    pairs = mutual_pairs(_checked(_imports()))
    assert not pairs, f"module pairs importing each other: {pairs}"


def test_every_exception_is_still_needed():
    # a fixed import leaves its line here: the list only shrinks if stale lines go
    imports = _imports()
    upward = {imp.edge for imp in upward_imports(imports, LAYER_OF)}
    mutual = {f"{a} -> {b}" for pair in mutual_pairs(imports) for a, b in (pair, pair[::-1])}
    in_cycle = {imp.edge for imp in imports
                if any(unit_of(imp.importer) in c and unit_of(imp.imported) in c for c in unit_cycles(imports))
                and unit_of(imp.importer) != unit_of(imp.imported)}
    stale = sorted(edge for edge in EXCEPTIONS if edge not in upward | mutual | in_cycle)
    assert not stale, f"these exceptions no longer break the contract; delete them: {stale}"


def test_every_exception_says_why():
    unexplained = [edge for edge, why in EXCEPTIONS.items() if len(why.split()) < 4]
    assert not unexplained, unexplained
