"""The game-agnostic engine: plays any compiled map game (see state.py for the API).

    from rulec.engine import new_game
    state = new_game(game, options=(), seed=0)
    state.legal_actions(), state.apply_action(a), state.clone(), state.outcome() ...
"""

from rulec.engine.actions import Action, ActionSyntaxError, IllegalAction
from rulec.engine.combat import Odds
from rulec.engine.state import (CHANCE, ELIMINATED, EXITED, ON_MAP, PENDING, TERMINAL, UNUSED, BattleReport,
                                GameState, UnknownOption, new_game)
from rulec.engine.victory import EngineContext, Outcome, VpEntry

__all__ = [
    "CHANCE", "TERMINAL", "ON_MAP", "PENDING", "EXITED", "ELIMINATED", "UNUSED",
    "Action", "ActionSyntaxError", "IllegalAction", "GameState", "new_game", "UnknownOption",
    "Outcome", "VpEntry", "Odds", "BattleReport", "EngineContext",
]
