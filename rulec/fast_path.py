"""Which engine runs: the one compiled with mypyc (`make fast`, README "Faster engine") or pure Python.

`make fast` (RULEC_COMPILE=1 python setup.py build_ext --inplace) compiles the modules compiled_modules() names into
extension modules beside their sources (setup.py), and records a hash of each source it compiled (BUILD_STAMP).
Python would import a built extension before its source; `use_pure_python_if_asked` (run by rulec/__init__.py,
before any of them is imported) makes the sources win instead when RULEC_PURE=1 is set, or when a source changed
since it was built (a stale build plays the old rules: never that). `engine_kind()` says which runs.
This module is never compiled itself.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
BUILD_STAMP = PACKAGE / "compiled_build.json"  # module -> sha256 of the source it was compiled from
# Not compiled: the package's __init__ (it only re-exports). The runtime's game model is: every rule reads its fields.
_RUNTIME = ("rulec.runtime.context", "rulec.runtime.hexes", "rulec.runtime.model")
# The AI players' search and evaluation: a greedy or MCTS decision spends most of its time in the evaluator's own code
# (issue 19: a greedy decision on a big game about x1.3 faster than with the engine alone compiled).
_PLAYERS = tuple(f"rulec.players.{name}" for name in ("base", "battle_value", "engagement", "evaluation", "final_awards",
                                                       "greedy", "mcts", "search", "variable_goals", "victory_margin",
                                                       "view"))
# Modules written for the compiled engine alone, in Cython (no Python source: pure Python runs without them, each used
# only where it is built and the compiled engine runs): the searches' inner loops (the movement search's, a trace's
# spread).
NATIVE = ("rulec.engine.search_core",)
# Engine modules left interpreted, and why (mypyc mixes compiled and interpreted modules).
INTERPRETED = {
    "rulec.engine.scores_context": "ScoresContext names one refusing method many times in its class body (`a = b = f`)",
}

_kind = "pure Python"


def compiled_modules(package_dir: Path = PACKAGE) -> list[str]:
    """The modules `make fast` compiles: every engine module but the package's __init__, the runtime's
    evaluation contexts (what the compiled game modules call) and game model (whose fields every rule reads: compiled,
    a field is read straight from its object), and the AI players' search and evaluation."""
    engine = sorted(p.stem for p in (package_dir / "engine").glob("*.py") if p.stem != "__init__")
    return [f"rulec.engine.{name}" for name in engine if f"rulec.engine.{name}" not in INTERPRETED] + list(_RUNTIME) \
        + list(_PLAYERS)


def source_of(module: str, package_dir: Path = PACKAGE) -> Path:
    return package_dir.parent.joinpath(*module.split(".")).with_suffix(".pyx" if module in NATIVE else ".py")


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _built(module: str) -> bool:
    stem = source_of(module).with_suffix("")
    return any(stem.with_name(stem.name + suffix).exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


class _SourcesFirst:
    """A finder that loads the compiled modules from their .py sources (ahead of the extension modules), and finds
    no native module (NATIVE: the engine's pure Python runs without them)."""

    def __init__(self, modules: set[str]):
        self.modules = modules

    def find_spec(self, fullname: str, path: object = None, target: object = None):
        if fullname in NATIVE:
            raise ModuleNotFoundError(f"{fullname} runs with the compiled engine only", name=fullname)
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


def use_pure_python_if_asked() -> str:
    """Choose the engine before any compiled module is imported; returns what engine_kind() will say."""
    global _kind
    modules = compiled_modules()
    if not any(_built(m) for m in modules):
        _kind = "pure Python"
        return _kind
    if os.environ.get("RULEC_PURE", "") not in ("", "0"):
        _kind = "pure Python (RULEC_PURE is set; a compiled engine is built)"
    else:
        stale = _stale(modules)
        if not stale:
            _kind = "compiled engine (mypyc)"
            return _kind
        _kind = f"pure Python (the compiled engine is stale: {stale}; run make fast again)"
    if not any(isinstance(f, _SourcesFirst) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourcesFirst(set(modules)))
    return _kind


def _stale(modules: list[str]) -> str | None:
    """Why the build does not match the sources (the first module changed since, or not built), None if it does."""
    try:
        stamp = json.loads(BUILD_STAMP.read_text())
    except (OSError, ValueError):
        return "its build record (rulec/compiled_build.json) is missing"
    for module in [*modules, *NATIVE]:
        if stamp.get(module) != source_hash(source_of(module)) or not _built(module):
            return f"{module} changed since it was built"
    return None


def engine_kind() -> str:
    """'compiled engine (mypyc)' or 'pure Python' (with why, when a compiled engine is built but not used)."""
    return _kind
