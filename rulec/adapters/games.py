"""The map games the adapters offer: every game in games/ that has a map, or any game file."""

from __future__ import annotations

from functools import lru_cache

from rulec.pipeline import GAMES_DIR, SUFFIX, load_game
from rulec.runtime.model import Game


def map_game_names() -> list[str]:
    """The names (file stems) of the games in games/ that the engine plays (those with a map)."""
    return [path.stem for path in sorted(GAMES_DIR.glob(f"*{SUFFIX}")) if load(path.stem).map is not None]


@lru_cache(maxsize=None)
def load(name_or_path: str) -> Game:
    """A checked game by its name in games/ or its path (checked once per process)."""
    return load_game(name_or_path)
