"""The OpenSpiel game and state classes, and their registration.

OpenSpiel clones a Python state by making a new initial state and deep-copying
its attributes, and serialises one by pickling them: a state keeps one attribute,
a `_Position`, which copies by the engine's cheap `clone` and pickles as the game,
options, seed and history it replays from.

`max_length`: the engine lets a player declare a battle and cancel it again as
often as they like, so a game has no length bound of its own; OpenSpiel needs one.
A game that reaches `max_length` actions (by default games.default_length, far beyond
any real game) ends there as a draw.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyspiel

from rulec.adapters.catalogue import Catalogue
from rulec.adapters.games import default_length, load, map_game_names, scenarios_of, start
from rulec.adapters.observation import Layout, history_text, position_text
from rulec.engine import GameState
from rulec.runtime.model import Game

PREFIX = "rulec_"

_REGISTERED: dict[str, Game] = {}  # OpenSpiel short name -> the game model
_CREATORS: list[type] = []


def short_name(name_or_path: str) -> str:
    """The OpenSpiel name of a game: `rulec_` and its file's name (`rulec_` + the file's stem)."""
    return PREFIX + Path(name_or_path).stem


def register(name_or_path: str) -> str:
    """Register a map game (its name in games/ or a path) with OpenSpiel; returns its short name."""
    name = short_name(name_or_path)
    game = load(name_or_path)
    if name in _REGISTERED:
        if _REGISTERED[name].source != game.source:
            raise ValueError(f"'{name}' is already the OpenSpiel name of {_REGISTERED[name].source}")
        return name
    if game.map is None:
        raise ValueError(f"'{name_or_path}' has no map: only map games are OpenSpiel games")
    taken = {"seed", "max_length", "scenario"}.intersection(game.options)
    if taken:
        raise ValueError(f"'{name_or_path}' has an option named {', '.join(sorted(taken))}, "
                         "which is also an OpenSpiel parameter of every rulec game")
    players = len(game.sides)
    parameters = {"seed": 0, "max_length": default_length(game), **{option: False for option in game.options}}
    if scenarios_of(game):
        parameters["scenario"] = ""  # a scenario's id; "": the whole game
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"{game.info.title} (rulec)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if players == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)
    _REGISTERED[name] = game
    # A class a game, as OpenSpiel's own Python games register: a closure registered instead is freed
    # by OpenSpiel's registry after Python has shut down, which aborts the interpreter at exit.
    creator = type(f"RulecGame_{name}", (RulecGame,), {"__init__": _init_for(game_type, game)})
    _CREATORS.append(creator)
    pyspiel.register_game(game_type, creator)
    return name


def _init_for(game_type: pyspiel.GameType, model: Game):
    def __init__(self, params=None):
        RulecGame.__init__(self, game_type, model, params or {})
    return __init__


def register_all() -> list[str]:
    """Register every map game in games/; returns their short names."""
    return [register(name) for name in map_game_names()]


class RulecGame(pyspiel.Game):
    """A compiled map game with its parameters chosen (options, seed, max_length)."""

    def __init__(self, game_type: pyspiel.GameType, model: Game, params: dict):
        params = {**game_type.parameter_specification, **params}
        params = {k: (v.value() if hasattr(v, "value") else v) for k, v in params.items()}
        self.model = model
        self.catalogue = Catalogue(model)
        self.layout = Layout(model)
        self.options = tuple(o for o in model.options if params.get(o))
        self.seed = int(params["seed"])
        self.max_length = int(params["max_length"])
        self.scenario = params.get("scenario") or None
        self.start = start(model, options=self.options, seed=self.seed, scenario=self.scenario)
        players = len(model.sides)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.catalogue.size, max_chance_outcomes=self.catalogue.chance_size,
            num_players=players, min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0 if players == 2 else None, max_game_length=self.max_length)
        super().__init__(game_type, info, params)

    def new_initial_state(self, *args) -> "RulecState":
        return RulecState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "RulecObserver":
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        perfect_recall = bool(iig_obs_type and iig_obs_type.perfect_recall)
        return RulecObserver(self.layout, perfect_recall)


class _Position:
    """The engine state inside an OpenSpiel state: copied by `clone`, pickled as what it replays from."""

    def __init__(self, engine: GameState, name: str, steps: int = 0):
        self.engine, self.name, self.steps = engine, name, steps

    def __deepcopy__(self, memo) -> "_Position":
        return _Position(self.engine.clone(), self.name, self.steps)

    def __reduce__(self):
        engine = self.engine
        scenario = getattr(engine, "scenario", None)
        return (_replay, (self.name, engine.options, engine.seed, engine.history(), self.steps, scenario))


def _replay(name: str, options: tuple[str, ...], seed: int, history: list, steps: int,
            scenario: str | None = None) -> _Position:
    engine = start(_REGISTERED[name], options=options, seed=seed, scenario=scenario)
    for action in history:
        engine.apply_action(action)
    return _Position(engine, name, steps)


class RulecState(pyspiel.State):
    """A position of a rulec game; every rule is the engine's (rulec.engine)."""

    def __init__(self, game: RulecGame):
        super().__init__(game)
        self._position = _Position(game.start.clone(), game.get_type().short_name)

    @property
    def engine(self) -> GameState:
        """The engine's state (read it; change it only through apply_action)."""
        return self._position.engine

    def _rulec_game(self) -> RulecGame:
        return self.get_game()

    def _truncated(self) -> bool:
        return self._position.steps >= self._rulec_game().max_length

    def current_player(self) -> int:
        engine = self._position.engine
        if engine.is_terminal() or self._truncated():
            return pyspiel.PlayerId.TERMINAL
        if engine.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return engine.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return list(self._rulec_game().catalogue.legal(self._position.engine))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        catalogue = self._rulec_game().catalogue
        return [(catalogue.chance_outcome(a), p) for a, p in self._position.engine.chance_outcomes()]

    def _apply_action(self, action: int) -> None:
        position = self._position
        catalogue = self._rulec_game().catalogue
        if position.engine.is_chance_node():
            position.engine.apply_action(catalogue.chance_action(action))
        else:
            position.engine.apply_action(catalogue.decode(action, position.engine))
        position.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        catalogue = self._rulec_game().catalogue
        engine = self._position.engine
        try:
            if player == pyspiel.PlayerId.CHANCE:
                return engine.action_to_string(catalogue.chance_action(action))
            return engine.action_to_string(catalogue.decode(action, engine))
        except ValueError:  # a retreat path numbered for another position
            return f"action {action}"

    def is_terminal(self) -> bool:
        return self._position.engine.is_terminal() or self._truncated()

    def returns(self) -> list[float]:
        engine = self._position.engine
        if not engine.is_terminal():
            return [0.0] * len(engine.players)  # in play, or truncated at max_length: a draw
        return engine.returns()

    def __str__(self) -> str:
        return position_text(self._position.engine)


class RulecObserver:
    """OpenSpiel's Python observer: `tensor` and its named views `dict`, filled by `set_from`."""

    def __init__(self, layout: Layout, perfect_recall: bool):
        self.layout = layout
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.views(self.tensor)

    def set_from(self, state: RulecState, player: int) -> None:
        self.tensor.fill(0)
        self.layout.fill(self.dict, state.engine, player)

    def string_from(self, state: RulecState, player: int) -> str:
        if self.perfect_recall:
            return history_text(state.engine, player)
        return f"player {state.engine.players[player]}\n{position_text(state.engine)}"
