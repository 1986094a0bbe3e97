"""The map games the adapters offer (every game in games/ that has a map, or any game file), and their start."""

from __future__ import annotations

from functools import lru_cache

from rulec.engine import GameState, new_game
from rulec.pipeline import GAMES_DIR, SUFFIX, load_game
from rulec.runtime.model import Game


def map_game_names() -> list[str]:
    """The names (file stems) of the games in games/ that the engine plays (those with a map)."""
    return [path.stem for path in sorted(GAMES_DIR.glob(f"*{SUFFIX}")) if load(path.stem).map is not None]


UNLIMITED_TURNS = 100  # the turns counted for default_length in a game without a last turn


def default_length(game: Game) -> int:
    """A bound on a game's length in actions, far beyond any real game: 20 actions a unit a phase.

    The engine lets a battle be declared and cancelled again without end, so a game has no
    bound of its own; the adapters end (OpenSpiel) or truncate (PettingZoo) a game there.
    """
    turns = game.info.turns or UNLIMITED_TURNS
    return turns * max(len(game.sequence), 1) * (20 * len(game.units) + 10)


def scenarios_of(game: Game) -> tuple[str, ...]:
    """The scenarios a game declares (none in an engine without scenarios)."""
    return tuple(getattr(game, "scenarios", None) or ())


def start(game: Game, *, options: tuple[str, ...] = (), seed: int = 0, scenario: str | None = None) -> GameState:
    """A new game, at a scenario's start when one is chosen."""
    return new_game(game, options=options, seed=seed, **({"scenario": scenario} if scenario else {}))


@lru_cache(maxsize=None)
def load(name_or_path: str) -> Game:
    """A checked game by its name in games/ or its path (checked once per process)."""
    return load_game(name_or_path)
