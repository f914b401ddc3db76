"""The import graph of a Python package read with `ast`, and the three rules of the import contract.

Every `import` / `from ... import` statement counts, wherever it stands: at the top of a module,
inside a function, under `if TYPE_CHECKING:`. A function-level import is still a dependency; it only
delays the moment Python notices a cycle. Relative forms (`from . import x`, `from ..graph import
build`) are resolved against the importing module's package. `from pkg import name` points at the
module `pkg.name` when that module exists, else at `pkg` itself (a name defined in `pkg/__init__.py`).

A *unit* is what the layer table places: a sub-package (`flinkx_build.lint` for every module under
`lint/`) or a top-level module (`flinkx_build.errors`). The rules, given a layer per unit:
  (a) upward: an import whose importer sits in a lower layer than the module it imports;
  (b) a cycle between units (a strongly connected set of two or more units);
  (c) two modules that import each other.
An exception is one edge `importer -> imported` (module names); excepted edges are left out of all
three rules, so removing the import and the exception line is how the list shrinks.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    importer: str  # dotted module name, e.g. flinkx_build.lint.run
    imported: str  # dotted module name inside the same package
    path: Path
    line: int

    @property
    def edge(self) -> str:
        return f"{self.importer} -> {self.imported}"


def module_names(package_dir: Path) -> dict[str, Path]:
    """Every module of the package: dotted name -> file (packages are named by their __init__.py)."""
    root_name = package_dir.name
    modules: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = [root_name, *path.relative_to(package_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _package_of(module: str, path: Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def _absolute(node: ast.ImportFrom, module: str, path: Path) -> str:
    if node.level == 0:
        return node.module or ""
    base = _package_of(module, path).split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(node: ast.AST, module: str, path: Path, modules: dict[str, Path]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        source = _absolute(node, module, path)
        found = []
        for alias in node.names:
            submodule = f"{source}.{alias.name}"
            found.append(submodule if submodule in modules else source)
        return found
    return []


def _owning_module(name: str, modules: dict[str, Path]) -> str | None:
    """`import a.b.c` depends on the longest prefix that is a module of the package."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def read_imports(package_dir: Path) -> list[Import]:
    """All in-package imports of the package at `package_dir`, in file and line order."""
    modules = module_names(package_dir)
    found: list[Import] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            for target in _targets(node, module, path, modules):
                imported = _owning_module(target, modules)
                if imported is not None and imported != module:
                    found.append(Import(module, imported, path, node.lineno))
    return sorted(found, key=lambda imp: (str(imp.path), imp.line, imp.imported))


def unit_of(module: str) -> str:
    """The unit the layer table places: `pkg.sub` for anything under a sub-package, else the module."""
    parts = module.split(".")
    return ".".join(parts[:2])


def upward_imports(imports: list[Import], layer_of: dict[str, int]) -> list[Import]:
    return [imp for imp in imports if layer_of[unit_of(imp.importer)] < layer_of[unit_of(imp.imported)]]


def mutual_pairs(imports: list[Import]) -> list[tuple[str, str]]:
    edges = {(imp.importer, imp.imported) for imp in imports}
    return sorted((a, b) for a, b in edges if (b, a) in edges and a < b)


def unit_cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected sets of two or more units (Tarjan's algorithm, iterative)."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        a, b = unit_of(imp.importer), unit_of(imp.imported)
        graph.setdefault(a, set())
        graph.setdefault(b, set())
        if a != b:
            graph[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return sorted(components)
