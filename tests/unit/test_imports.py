"""No import cycle between xwsat's modules.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import`` at any
depth (inside functions too, where a cycle would otherwise hide), but not those under ``if
TYPE_CHECKING:`` (never run). Edges go module to module: a name imported from a package whose
``__init__`` re-exports it counts as an import of the submodule that defines it. Imports of
other libraries (ortools, pysat, numba, matplotlib, kept out of start-up inside functions) are
not edges.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "xwsat"


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node but those under ``if TYPE_CHECKING:``."""
    kept, stack = [], [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        kept.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return kept


def _imports(module: str, path: Path) -> list[tuple[str, str | None]]:
    """(module, name or None) for each import in ``module``, relative ones made absolute."""
    found: list[tuple[str, str | None]] = []
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[:None if path.name == "__init__.py" else -1]
                package = package[:len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            found += [(base, alias.name) for alias in node.names]
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    imports = {module: _imports(module, path) for module, path in modules.items()}
    # what each package __init__ re-exports, and from which submodule
    origin = {(module, name): source for module in modules
              if modules[module].name == "__init__.py"
              for source, name in imports[module]
              if name is not None and source.startswith(module + ".")}
    graph: dict[str, set[str]] = {}
    for module, found in imports.items():
        targets = set()
        for source, name in found:
            if name is not None and f"{source}.{name}" in modules:
                targets.add(f"{source}.{name}")
            elif (source, name) in origin:
                targets.add(origin[source, name])
            elif source in modules:
                targets.add(source)
        graph[module] = targets - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    found = cycles(import_graph())
    shown = [" <-> ".join(component) for component in found]
    assert shown == []


def test_the_graph_sees_imports_inside_functions() -> None:
    graph = import_graph()
    assert "xwsat.words" in graph["xwsat.commands.common"]
    # a command's module is imported by name when it runs: not an edge, but cli's own are
    assert "xwsat.guard" in graph["xwsat.cli"]
    assert "xwsat.backends.registry" in graph["xwsat.commands.common"]  # inside a function


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_a_name_re_exported_by_a_package_counts_as_its_submodule() -> None:
    graph = import_graph()
    assert "xwsat.python_search.engine" in graph["xwsat.backends.native"]
