"""The contract's checker on a tiny package written in tmp_path: it must see every kind of import and
catch each kind of violation, or the contract test would pass by seeing nothing."""
from __future__ import annotations

import textwrap
from pathlib import Path

from tests.architecture.import_graph import mutual_pairs
from tests.architecture.import_graph import read_imports
from tests.architecture.import_graph import unit_cycles
from tests.architecture.import_graph import upward_imports

LAYER_OF = {"pkg": 0, "pkg.base": 0, "pkg.low": 1, "pkg.high": 2}


def _package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    for rel, text in {"__init__.py": "", "base.py": "", "low/__init__.py": "", "high/__init__.py": "", **files}.items():
        path = package / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return package


def _edges(package: Path) -> set[str]:
    return {imp.edge for imp in read_imports(package)}


def test_a_clean_package_passes(tmp_path):
    package = _package(tmp_path, {
        "low/a.py": "from pkg import base\n",
        "high/b.py": "from pkg.low.a import x\nimport pkg.base\n",
    })
    imports = read_imports(package)
    assert {imp.edge for imp in imports} == {"pkg.low.a -> pkg.base", "pkg.high.b -> pkg.low.a", "pkg.high.b -> pkg.base"}
    assert upward_imports(imports, LAYER_OF) == []
    assert unit_cycles(imports) == [] and mutual_pairs(imports) == []


def test_an_upward_import_inside_a_function_is_caught(tmp_path):
    package = _package(tmp_path, {
        "high/b.py": "X = 1\n",
        "low/a.py": "def f():\n    from pkg.high.b import X\n    return X\n",
    })
    found = upward_imports(read_imports(package), LAYER_OF)
    assert [(imp.edge, imp.line) for imp in found] == [("pkg.low.a -> pkg.high.b", 2)]


def test_relative_forms_resolve_to_the_module(tmp_path):
    package = _package(tmp_path, {
        "high/b.py": "",
        "high/c.py": "from . import b\nfrom .b import name\n",
        "low/a.py": "from ..high import b\nfrom .. import base\n",
        "low/__init__.py": "from . import a\n",
    })
    edges = _edges(package)
    assert "pkg.high.c -> pkg.high.b" in edges
    assert "pkg.low.a -> pkg.high.b" in edges and "pkg.low.a -> pkg.base" in edges
    assert "pkg.low -> pkg.low.a" in edges
    assert [imp.edge for imp in upward_imports(read_imports(package), LAYER_OF)] == ["pkg.low.a -> pkg.high.b"]


def test_a_type_checking_import_counts(tmp_path):
    package = _package(tmp_path, {
        "high/b.py": "",
        "low/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.high.b import T\n",
    })
    assert "pkg.low.a -> pkg.high.b" in _edges(package)


def test_a_cycle_between_packages_is_caught(tmp_path):
    # each import is allowed alone in one layer; together the units depend on each other
    package = _package(tmp_path, {
        "low/a.py": "from pkg.base import x\n",
        "base.py": "def f():\n    import pkg.low.z\n",
        "low/z.py": "",
    })
    assert unit_cycles(read_imports(package)) == [["pkg.base", "pkg.low"]]
    assert mutual_pairs(read_imports(package)) == []


def test_a_mutual_pair_is_caught(tmp_path):
    package = _package(tmp_path, {
        "low/a.py": "from pkg.low.b import y\n",
        "low/b.py": "def g():\n    from pkg.low import a\n",
    })
    assert mutual_pairs(read_imports(package)) == [("pkg.low.a", "pkg.low.b")]
    assert unit_cycles(read_imports(package)) == []  # inside one package: not a package cycle


def test_outside_imports_are_ignored(tmp_path):
    package = _package(tmp_path, {"low/a.py": "import os\nfrom sqlfluff.core import Linter\nimport pkgx\n"})
    assert _edges(package) == set()


def test_a_new_upward_import_in_flinkx_build_breaks_the_contract(tmp_path):
    # the real layer table and exceptions on a copy of the real package with one import added
    import shutil

    from tests.architecture.test_import_contract import EXCEPTIONS
    from tests.architecture.test_import_contract import LAYER_OF as REAL_LAYERS
    from tests.architecture.test_import_contract import PACKAGE

    copy = tmp_path / "flinkx_build"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "data", "java"))
    errors = copy / "errors.py"
    errors.write_text(errors.read_text(encoding="utf-8") + "\n\ndef _late():\n    from flinkx_build.commands import build\n",
                      encoding="utf-8")
    kept = [imp for imp in read_imports(copy) if imp.edge not in EXCEPTIONS]
    assert [imp.edge for imp in upward_imports(kept, REAL_LAYERS)] == ["flinkx_build.errors -> flinkx_build.commands.build"]
    assert unit_cycles(kept)  # commands imports errors: a cycle too
