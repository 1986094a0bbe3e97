"""Shared fixtures: the games in games/, loaded once per test session."""

from __future__ import annotations

import functools
import os

# `make test` tests the pure-Python engine, even in a checkout where `make fast` built the compiled one (set before
# rulec is first imported: it chooses then). tests/test_engine_compiled.py compares the two.
os.environ.setdefault("RULEC_PURE", "1")

import pytest  # noqa: E402

from rulec.pipeline import load_game  # noqa: E402


@functools.cache
def _game(name: str):
    return load_game(name)


@pytest.fixture
def metz():
    """The Drive on Metz game model."""
    return _game("drive_on_metz")
