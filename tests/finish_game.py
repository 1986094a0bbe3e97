"""One AI game to its end, for tests/test_players_finish_games.py: played in the test's process, or, for the long
tier's big games, as a script in a tree where the compiled engine (and the AI players with it) is built, in a
process of its own (the test's process has imported the pure-Python players already):

    PYTHONPATH=TREE RULEC_PURE=0 python tests/finish_game.py GAME_FILE KIND

prints, as JSON, the engine that played and how the game went.
"""

from __future__ import annotations

import json
import sys

from rulec.engine import new_game
from rulec.engine.actions import Action
from rulec.pipeline import load_game
from rulec.players import GreedyPlayer, MCTSPlayer
from rulec.players.match import play_match

MAX_ACTIONS = 5000  # far more than any of these games takes; a player that loops hits it


def players(kind: str, seats: int) -> list:
    if kind == "greedy":
        return [GreedyPlayer(seed) for seed in range(seats)]
    # A small budget: the loops this guards against come from what is searched, not from how much.
    return [MCTSPlayer(seed, max_simulations=6, rollout_depth=2, widening=3, prior_visits=4, prune_margin=1.0)
            for seed in range(seats)]


def play_to_the_end(game, kind: str) -> dict:
    """Seed 1, `kind` on every side: whether the match ended, the turn and actions it reached, its calls-off."""
    state = new_game(game, seed=1)
    result = play_match(state, players(kind, len(state.players)), seed=1, max_actions=MAX_ACTIONS)
    return {"finished": result.finished, "terminal": state.is_terminal(), "turn": state.turn, "actions": result.actions,
            "cancels": state.history().count(Action.cancel())}


def main(argv: list[str]) -> None:
    from rulec.fast_path import engine_kind

    path, kind = argv
    print(json.dumps({"engine": engine_kind(), **play_to_the_end(load_game(path), kind)}))


if __name__ == "__main__":
    main(sys.argv[1:])
