"""Which engine runs, without building one: built extension modules are used only when their build matches the sources
and RULEC_PURE is not set; otherwise the sources run, and `rulec --version` says which (rulec/fast_path.py).

A copy of the package gets an empty file where each extension module would be: importing one of those would fail,
so a run that imports the engine proves the sources were chosen. tests/test_engine_compiled.py (long tier) builds
the real one and compares the games both play.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rulec
from rulec import fast_path

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
PLAY = "from rulec.fast_path import engine_kind; import rulec.engine; print(engine_kind())"


def _run(tree: Path, code: str, pure: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "RULEC_PURE"}
    env["PYTHONPATH"] = str(tree)
    if pure is not None:
        env["RULEC_PURE"] = pure
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=tree, capture_output=True, text=True, timeout=120)


@pytest.fixture
def unbuilt(tmp_path) -> Path:
    """A copy of the package without any build (this checkout may have one: make fast)."""
    shutil.copytree(ROOT / "rulec", tmp_path / "rulec", ignore=shutil.ignore_patterns("__pycache__", "*.so", "compiled_build.json"))
    return tmp_path


@pytest.fixture
def fake_build(unbuilt) -> Path:
    """A copy of the package with an empty 'extension module' beside every module make fast compiles."""
    tmp_path = unbuilt
    for module in [*fast_path.compiled_modules(tmp_path / "rulec"), *fast_path.NATIVE]:
        fast_path.source_of(module, tmp_path / "rulec").with_suffix(SUFFIX).write_bytes(b"")
    return tmp_path


def _stamp(tree: Path) -> dict[str, str]:
    """The build record of a build of `tree`'s sources (the compiled modules and the native ones)."""
    return {m: fast_path.source_hash(fast_path.source_of(m, tree / "rulec"))
            for m in [*fast_path.compiled_modules(tree / "rulec"), *fast_path.NATIVE]}


def test_the_compiled_modules_are_the_engine_the_runtime_contexts_and_model_and_the_ais_search():
    modules = fast_path.compiled_modules()
    assert "rulec.engine.legal_moves" in modules and "rulec.engine.movement" in modules
    assert "rulec.runtime.context" in modules and "rulec.runtime.model" in modules
    assert {"rulec.players.evaluation", "rulec.players.greedy", "rulec.players.mcts"} <= set(modules)
    assert "rulec.players.human" not in modules and "rulec.players.simulation" not in modules  # the AIs' thinking only
    assert "rulec.engine" not in modules and "rulec.check.build" not in modules  # the package, the checker
    assert not set(fast_path.INTERPRETED) & set(modules)
    assert all(fast_path.source_of(m).is_file() for m in modules)


def test_without_a_build_the_engine_is_pure_python(unbuilt):
    done = _run(unbuilt, "from rulec.cli.main import main; main(['--version'])", pure=None)
    assert done.returncode == 0 and done.stdout.strip() == f"rulec {rulec.__version__}, pure Python", done.stdout + done.stderr


def test_rulec_pure_runs_the_sources_though_a_build_is_there(fake_build):
    done = _run(fake_build, PLAY, pure="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pure Python (RULEC_PURE is set; a compiled engine is built)"
    # nor does it load a native module (here an empty file: loading it would fail): the search runs its own loop
    done = _run(fake_build, "from rulec.engine import native; print(native.core)", pure="1")
    assert done.returncode == 0 and done.stdout.strip() == "None", done.stderr


def test_a_native_module_changed_since_the_build_makes_it_stale(fake_build):
    stamp = _stamp(fake_build)
    stamp["rulec.engine.search_core"] = "0" * 64
    (fake_build / "rulec" / "compiled_build.json").write_text(json.dumps(stamp))
    done = _run(fake_build, PLAY, pure=None)
    assert done.returncode == 0, done.stderr
    assert "stale: rulec.engine.search_core changed since it was built" in done.stdout


def test_a_build_without_its_record_or_with_another_source_runs_the_sources(fake_build):
    done = _run(fake_build, PLAY, pure=None)
    assert done.returncode == 0, done.stderr
    assert "the compiled engine is stale: its build record (rulec/compiled_build.json) is missing" in done.stdout
    stamp = _stamp(fake_build)
    stamp["rulec.engine.stacking"] = "0" * 64  # built from another source
    (fake_build / "rulec" / "compiled_build.json").write_text(json.dumps(stamp))
    done = _run(fake_build, PLAY, pure="0")
    assert done.returncode == 0, done.stderr
    assert "stale: rulec.engine.stacking changed since it was built; run make fast again" in done.stdout


def test_a_build_that_matches_its_sources_is_used(fake_build):
    """The record matching, the (here empty, so unloadable) extension modules are what Python imports."""
    (fake_build / "rulec" / "compiled_build.json").write_text(json.dumps(_stamp(fake_build)))
    done = _run(fake_build, "from rulec.fast_path import engine_kind; print(engine_kind())", pure=None)
    assert done.stdout.strip() == "compiled engine (mypyc)", done.stderr
    done = _run(fake_build, PLAY, pure=None)
    assert done.returncode != 0 and "ImportError" in done.stderr
