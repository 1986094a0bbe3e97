"""Shared fixtures: the games in games/, loaded once per test session."""

from __future__ import annotations

import functools

import pytest

from rulec.pipeline import load_game


@functools.cache
def _game(name: str):
    return load_game(name)


@pytest.fixture
def metz():
    """The Drive on Metz game model."""
    return _game("drive_on_metz")
