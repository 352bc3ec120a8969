"""The import structure of the package: no circle anywhere in ``src/chicago`` (issue 19,
item 6: none in the core; the shells keep to it too).

Every ``import`` counts, at a module's top or inside a function (an import put inside a
function to dodge a circle at start-up is still a circle of the design); only imports under
``if TYPE_CHECKING:`` (types alone) and the accelerator's stub ``_poker.pyi`` do not.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "chicago"


def _modules() -> dict[str, Path]:
    """Dotted name -> file, for every module and stub of the package."""
    found: dict[str, Path] = {}
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyi")]):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.setdefault(".".join(parts), path)
    return found


def _type_only(tree: ast.AST) -> set[int]:
    """The nodes under ``if TYPE_CHECKING:``."""
    nodes: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
            if name == "TYPE_CHECKING":
                nodes.update(id(sub) for sub in ast.walk(node))
    return nodes


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports."""
    modules = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        if path.suffix == ".pyi":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str | None] = []
            if isinstance(node, ast.Import):
                targets = [resolve(a.name) for a in node.names if a.name.startswith("chicago")]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    head = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(head + ([node.module] if node.module else []))
                if base == "chicago" or base.startswith("chicago."):
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules
                               else resolve(base) for a in node.names]
            graph[name].update(t for t in targets if t is not None and t != name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_lazy_and_relative_imports() -> None:
    """The reader itself: it finds the engine's imports and an import inside a function."""
    graph = import_graph()
    assert "chicago.rules" in graph["chicago.engine.game"]
    assert "chicago._poker" in graph["chicago.poker"]  # inside a try at the top
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle_in_the_package() -> None:
    found = circles(import_graph())
    assert found == [], "import circles: " + "; ".join(" <-> ".join(c) for c in found)
