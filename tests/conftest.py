"""Shared fixtures: the games in games/, loaded once per test session."""

from __future__ import annotations

import functools
import gc
import os

# `make test` tests the pure-Python engine, even in a checkout where `make fast` built the compiled one (set before
# rulec is first imported: it chooses then). tests/test_engine_compiled.py compares the two. RULEC_PURE=1 given
# to pytest itself also keeps the long tier on pure Python (it plays its checked games compiled where it can).
# (pytest-xdist's workers inherit the environment the controller set here: they read what was asked of it)
_PURE_ASKED = os.environ.setdefault(
    "RULEC_TESTS_PURE_ASKED", "1" if os.environ.get("RULEC_PURE", "") not in ("", "0") else "0") == "1"
os.environ.setdefault("RULEC_PURE", "1")
# Games checked once are kept (rulec/game_cache.py): for the suite, in the checkout's build/, not the user's cache.
os.environ.setdefault("RULEC_CACHE_DIR", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                      "build", "game-cache"))

import pytest  # noqa: E402
from compiled_engine import CompiledTree, build, shared_build  # noqa: E402

from rulec.pipeline import load_game  # noqa: E402


@functools.cache
def _game(name: str):
    return load_game(name)


@pytest.fixture
def metz():
    """The Drive on Metz game model."""
    return _game("drive_on_metz")


@pytest.fixture(scope="session")
def compiled_tree(tmp_path_factory) -> CompiledTree:
    """The compiled engine, built once a session for the long tier (tests/compiled_engine.py): by one of
    pytest-xdist's workers for all (make test-long runs on them), in the directory their temporary ones share."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return shared_build(tmp_path_factory.getbasetemp().parent, _PURE_ASKED)
    return build(tmp_path_factory.mktemp("compiled"), _PURE_ASKED)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """In a pytest-xdist worker (make test), after its last test: the objects alive now are frozen out of the garbage
    collector's reach. The worker's exit collects garbage once more, and execnet gives it 5 s to end before it sends
    the worker a SIGINT (printed as a KeyboardInterrupt 'ignored in gc_callback'): a full collection of the heap a
    worker has built over the suite could take that long on a busy machine; of the frozen heap it takes none."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        gc.freeze()
