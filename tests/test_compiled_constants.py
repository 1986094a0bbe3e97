"""The modules the compiled engine builds (rulec/fast_path.py) write what mypyc turns into fast C, where the plain
Python spelling compiles to a slow generic operation:

- a module's constants (its ALL_CAPS names bound once) are `Final`: mypyc then reads a Final literal as a C constant
  and a Final object from a C static, where a plain module name is looked up in the module's dict at every use (983
  such look-ups in the engine's C before, 153 after: Drive on Metz's sampled playouts about 4% faster, issue 19);
- a Final tuple says its type: a bare `Final` tuple is typed by its length (`tuple[str, str, str]`), which mypyc keeps
  unboxed and boxes again at each use, a new tuple every loop over it; `tuple[str, ...]` is kept as it is;
- an object's class is asked by `type(x)` (Py_TYPE, compiled), not `x.__class__` (an attribute look-up).

A constant a test changes (monkeypatch) stays a plain name: compiled, a Final one would not see the change.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from rulec import fast_path

PACKAGE = Path(fast_path.__file__).parent
SOURCES = [fast_path.source_of(m, PACKAGE) for m in fast_path.compiled_modules(PACKAGE) if m not in fast_path.NATIVE]
CONSTANT = re.compile(r"^_?[A-Z][A-Z0-9_]*$")
# Tunables the tests patch (module attribute set by monkeypatch): plain names, read from the module's dict
PATCHED_BY_TESTS = {"ORIGINAL_GOES_ON_EVERY", "MAX_REACTION_CHOICES", "MOST_SHIFTS", "DISTANCE_ROWS"}


def _module_constants(tree: ast.Module) -> list[tuple[str, ast.stmt]]:
    """The module's ALL_CAPS names bound by an assignment at its top level (not a type variable or alias)."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names = [n for target in node.targets for n in ast.walk(target) if isinstance(n, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            names = [node.target]
        else:
            continue
        value = node.value
        alias = isinstance(value, ast.Subscript) or (
            isinstance(value, ast.Call) and getattr(value.func, "id", "") in ("TypeVar", "NewType", "ParamSpec"))
        found += [(n.id, node) for n in names if CONSTANT.match(n.id) and not alias]
    return found


def _is_final(node: ast.stmt) -> bool:
    return isinstance(node, ast.AnnAssign) and "Final" in ast.unparse(node.annotation)


def _parsed() -> list[tuple[str, ast.Module]]:
    return [(str(path.relative_to(PACKAGE)), ast.parse(path.read_text(encoding="utf-8"))) for path in SOURCES]


def test_module_constants_of_the_compiled_modules_are_final():
    plain = [f"{path}:{node.lineno} {name}" for path, tree in _parsed() for name, node in _module_constants(tree)
             if not _is_final(node) and name not in PATCHED_BY_TESTS]
    assert not plain, f"module constants not Final (compiled, each use is a dict look-up): {plain}"


def test_final_tuples_say_their_type():
    bare = [f"{path}:{node.lineno} {name}" for path, tree in _parsed() for name, node in _module_constants(tree)
            if _is_final(node) and isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Tuple)
            and ast.unparse(node.annotation) == "Final"]
    assert not bare, f"bare Final tuples (compiled, kept unboxed and boxed anew at each use): {bare}"


def test_the_compiled_modules_ask_a_class_by_type():
    asked = [f"{path}:{node.lineno}" for path, tree in _parsed() for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and node.attr == "__class__" and isinstance(node.ctx, ast.Load)]
    assert not asked, f"x.__class__ (compiled, an attribute look-up; type(x) is Py_TYPE): {asked}"


def test_the_tunables_left_plain_are_the_ones_a_test_patches():
    """Each name exempted above is still a module constant and still patched by a test: the list does not go stale."""
    tests = "\n".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py")
                      if p.name != Path(__file__).name)
    constants = {name for _, tree in _parsed() for name, _ in _module_constants(tree)}
    for name in PATCHED_BY_TESTS:
        assert name in constants, name
        assert f'"{name}"' in tests, f"{name} is no longer patched by a test: make it Final"
