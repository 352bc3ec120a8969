"""The import structure of the package: no circle anywhere in ``src/chicago`` (issue 19,
item 6: none in the core; the shells keep to it too), and layers that point one way
(issue 24): card maths and rules, the engine, bots, simulation, club and review, then the
server and the shells, each module importing only from its own layer and those below; the
shells apart from one another, the server's table core apart from the rest of the server,
and the browser app's package free of the server's Python.

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


# ---------------------------------------------------------------------- layers (issue 24)
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("card maths and rules", ("chicago", "chicago._poker", "chicago.cards",
                              "chicago.categories", "chicago.datadir", "chicago.extras",
                              "chicago.odds", "chicago.poker", "chicago.rules")),
    ("the engine", ("chicago.engine",)),
    ("bots, records and advice", ("chicago.advice", "chicago.bots", "chicago.record")),
    ("simulation and environments", ("chicago.cluster", "chicago.env", "chicago.sim",
                                     "chicago.training", "chicago.training_play")),
    ("club and review", ("chicago.club", "chicago.review")),
    ("the server and the shells", ("chicago.__main__", "chicago.cli", "chicago.commands",
                                   "chicago.server", "chicago.tui", "chicago.web")),
)
"""The layers of the package, bottom first: a module imports only from its own layer and
those below it. ``chicago`` itself (the package's ``__init__``) loads its names lazily, so
it imports nothing at all."""

SHELLS = ("chicago.server", "chicago.tui")
"""The shells of the top layer, which do not import one another (the commands and the
command line wire them; ``chicago.web`` is the browser app's files, which both may read)."""

CORE = "chicago.server.core"
CORE_MAY_USE = ("chicago.server.core", "chicago.server.protocol", "chicago.server.bucket")
"""The table core imports, of the server, only itself, the protocol's words and the token
bucket (no transport, storage, web framework or process bookkeeping)."""


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str) -> int:
    """The index of ``module``'s layer in :data:`LAYERS` (the longest prefix that names
    one); ValueError for a module no layer names."""
    best = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if _within(module, prefix) and (best is None or len(prefix) > len(best[1])):
                best = (index, prefix)
    if best is None:
        raise ValueError(f"{module} is in no layer: add it to LAYERS")
    return best[0]


def against_the_layers(graph: dict[str, set[str]]) -> list[str]:
    """Every import of ``graph`` that points up, between the shells, or out of the core."""
    found = []
    for module, imported in sorted(graph.items()):
        for other in sorted(imported):
            if layer_of(other) > layer_of(module):
                found.append(f"{module} ({LAYERS[layer_of(module)][0]}) imports {other} "
                             f"({LAYERS[layer_of(other)][0]})")
            shell = next((s for s in SHELLS if _within(module, s)), None)
            if shell and any(_within(other, s) for s in SHELLS if s != shell):
                found.append(f"{module} imports {other}: the shells are apart")
            if _within(module, CORE) and _within(other, "chicago.server") and not any(
                    _within(other, allowed) for allowed in CORE_MAY_USE):
                found.append(f"{module} imports {other}: the table core is apart")
    return found


def test_the_layer_check_sees_an_import_against_the_order() -> None:
    assert against_the_layers({"chicago.engine.game": {"chicago.rules"}}) == []
    assert against_the_layers({"chicago.sim": {"chicago.club.ratings"}}) == [
        "chicago.sim (simulation and environments) imports chicago.club.ratings "
        "(club and review)"]
    assert against_the_layers({"chicago.server.core.state": {"chicago.server.live"}}) == [
        "chicago.server.core.state imports chicago.server.live: the table core is apart"]
    assert against_the_layers({"chicago.server.hints": {"chicago.tui.words"}}) == [
        "chicago.server.hints imports chicago.tui.words: the shells are apart"]


def test_every_import_points_down_the_layers() -> None:
    """Card maths and rules at the bottom, then the engine, bots, sim, club and review,
    then the server and the shells: no module imports from a layer above its own."""
    found = against_the_layers(import_graph())
    assert found == [], "imports against the layers:\n" + "\n".join(found)


def test_the_browser_app_holds_no_server_python() -> None:
    """``chicago.web`` is the browser's files: no Python module but the package itself,
    which imports nothing of chicago (the server's Python lives under ``chicago.server``)."""
    graph = import_graph()
    assert [m for m in graph if _within(m, "chicago.web")] == ["chicago.web"]
    assert graph["chicago.web"] == set()
