"""The compiled engine (make fast, mypyc) for the long tier: built once a test session, in a copy of this tree.

tests/test_engine_compiled.py compares it with pure Python game by game; tests/test_engine_conformance_long.py plays
its checked games on it (in about 0.6 of pure Python's time). Building takes about a minute on two cores, so only
the long tier asks for it (the `compiled_tree` fixture of conftest.py); RULEC_COMPILED_TREE names a checkout where
`make fast` built it already. The long tier runs on pytest-xdist's workers (make test-long): the first worker to ask
builds it, the others wait for that build and share it (shared_build).
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"


@dataclass(frozen=True)
class CompiledTree:
    """A tree where the compiled engine is built, or None and why it cannot be built on this machine."""
    path: Path | None
    why_not: str = ""


def benchmark_module():
    """benchmarks/compiled.py, which copies a tree, builds it and runs the engine there (by its path: benchmarks/ is
    not a package)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location("compiled_benchmark", BENCHMARKS / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def build(scratch: Path, pure_asked: bool) -> CompiledTree:
    """The tree RULEC_COMPILED_TREE names, else this checkout copied into `scratch` and built there. A build that
    fails raises (RuntimeError with the compiler's log); a machine that cannot build says why."""
    if pure_asked:
        return CompiledTree(None, "RULEC_PURE=1 asks for pure Python")
    given = os.environ.get("RULEC_COMPILED_TREE")
    if given:
        return CompiledTree(Path(given).resolve())
    if not (shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")):
        return CompiledTree(None, "no C compiler (cc, gcc or clang) on this machine: the compiled engine cannot be "
                                  "built")
    if importlib.util.find_spec("mypyc") is None:
        return CompiledTree(None, "mypyc is not installed (it comes with mypy, in the test extra): the compiled engine "
                                  "cannot be built")
    if importlib.util.find_spec("Cython") is None:
        return CompiledTree(None, "Cython is not installed (in the test extra): the compiled engine cannot be built")
    compiled = benchmark_module()
    tree = compiled.copy_tree(ROOT, scratch)
    compiled.build(tree)
    return CompiledTree(tree)


def shared_build(root: Path, pure_asked: bool) -> CompiledTree:
    """build() once for every process of a test session that shares `root` (pytest-xdist's workers share the
    directory above their own temporary ones): the first to ask builds in root/compiled while the others wait on a
    lock, then all read what it found, a tree or why there is none. A build that failed is not tried again by each
    worker (a minute each): they raise its error too."""
    record = root / "compiled-engine.json"
    with FileLock(str(root / "compiled-engine.lock")):
        if not record.is_file():
            try:
                found = build(root / "compiled", pure_asked)
            except RuntimeError as error:
                record.write_text(json.dumps({"failed": str(error)}))
                raise
            record.write_text(json.dumps({"path": str(found.path) if found.path else None, "why_not": found.why_not}))
    known = json.loads(record.read_text())
    if "failed" in known:
        raise RuntimeError(known["failed"])
    return CompiledTree(Path(known["path"]) if known["path"] else None, known["why_not"])
