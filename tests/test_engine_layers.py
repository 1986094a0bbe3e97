"""rulec/engine/ is layered: each module imports only modules of its own layer or below, and no import circles.

Every import counts: at the top of a module, inside a function, and under `if TYPE_CHECKING` (a type named in an
annotation is a dependency a reader follows too). The layers are named in rulec/engine/position.py's docstring.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rulec.engine

ENGINE = Path(rulec.engine.__file__).parent

# Lowest first. A new module goes in the lowest layer whose modules it needs.
LAYERS: dict[str, tuple[str, ...]] = {
    "data": ("statuses", "actions", "rule_cases", "step_costs", "hex_bits", "native", "scores_context"),
    "tables": ("tables", "sight", "movement", "combat"),
    "position": ("frames", "marker_table", "records", "position"),
    "mechanisms": ("history", "markers", "stacking", "move_memory", "trace_memory", "trace_sets", "traces", "context", "answer_reads", "end_sets", "modifiers",
                   "arrivals", "reach", "move_ends",
                   "victory",
                   "joining", "duties", "exits", "changes", "procedures", "legal_moves", "steps", "placement", "retreats",
                   "advances", "effects", "scenarios", "phases", "battles"),
    "decisions": ("decisions", "setup", "sampling", "explain"),
    "façade": ("state", "conformance", "__init__"),
}
LEVEL = {module: level for level, modules in enumerate(LAYERS.values()) for module in modules}
LAYER_OF = {module: layer for layer, modules in LAYERS.items() for module in modules}


def engine_imports(path: Path) -> set[str]:
    """The rulec.engine modules `path` imports, anywhere in it."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "rulec.engine":
                found.update(alias.name for alias in node.names)
            elif node.module.startswith("rulec.engine."):
                found.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[2] for alias in node.names if alias.name.startswith("rulec.engine."))
    return {name for name in found if (ENGINE / f"{name}.py").exists()} - {path.stem}


GRAPH = {path.stem: engine_imports(path) for path in sorted(ENGINE.glob("*.py"))}


def test_every_module_has_a_layer():
    assert sorted(set(GRAPH) - set(LEVEL)) == [], "add the new module to LAYERS (tests/test_engine_layers.py)"
    assert sorted(set(LEVEL) - set(GRAPH)) == [], "a module in LAYERS is gone: take it out"


def test_imports_point_down():
    upward = sorted(f"{module} ({LAYER_OF[module]}) imports {other} ({LAYER_OF[other]})"
                    for module, others in GRAPH.items() for other in others
                    if module in LEVEL and other in LEVEL and LEVEL[other] > LEVEL[module])
    assert upward == [], "\n".join(upward)


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_circle():
    found = circles(GRAPH)
    assert found == [], "\n".join(" -> ".join(circle) for circle in found)


def test_the_check_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
