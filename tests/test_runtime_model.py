"""The game model's objects as the checker builds them: each field of the type it declares (the compiled build, make
fast, checks it as an object is made), and copied or pickled whole."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import typing
from pathlib import Path

from rulec.pipeline import load_game
from rulec.players.final_awards import GOAL_VALUE, goal_condition, victory_goals
from rulec.runtime import model as m

GAMES = Path(__file__).resolve().parent / "games"


def test_model_objects_pickle_and_copy_back_equal():
    game = load_game("drive_on_metz")
    for unit in game.units.values():
        assert pickle.loads(pickle.dumps(unit)) == unit and copy.deepcopy(unit) == unit and copy.copy(unit) == unit
    assert copy.deepcopy(game.sequence) == game.sequence and pickle.loads(pickle.dumps(game.sequence)) == game.sequence
    assert copy.deepcopy(game.map) == game.map


def test_a_terrain_cost_written_as_an_expression_is_compiled_and_the_types_sequences_are_tuples():
    game = load_game(str(GAMES / "mud_and_armor.rulec"))
    clear = game.terrain["clear"]
    assert isinstance(clear.move, m.Expr) and clear.move.source.startswith("if(")
    assert game.terrain["forest"].move == 2 and isinstance(game.terrain["swamp"].prohibited_for, tuple)
    assert isinstance(game.hexside_types["stream"].move_extra_for, dict)


def test_every_sequence_field_of_a_checked_game_holds_a_tuple():
    """What the model declares a tuple is one (a list would make a frozen object unhashable, and the compiled build
    refuses it)."""
    for game in (load_game("drive_on_metz"), load_game("the_marne"), load_game(str(GAMES / "mud_and_armor.rulec"))):
        seen = 0
        for obj in [*game.units.values(), *game.terrain.values(), *game.hexside_types.values(), *game.unit_types.values(),
                    *game.sequence, *game.awards]:
            hints = typing.get_type_hints(type(obj), vars(m))
            for field in dataclasses.fields(obj):
                if typing.get_origin(hints[field.name]) is tuple:
                    assert isinstance(getattr(obj, field.name), tuple), (type(obj).__name__, field.name)
                    seen += 1
        assert seen > 10


def test_a_victory_level_read_as_a_goal_is_an_expression_of_the_level():
    game = load_game("the_marne")
    goals = victory_goals(game)
    assert goals and all(isinstance(goal.amount, m.Expr) for goal in goals)
    levels = {level.when for level in game.victory.levels if level.when is not None and level.winner in game.sides}
    assert levels <= {goal_condition(goal) for goal in goals}
    assert {goal.amount.source.split(" if ")[0] for goal in goals} == {f"{GOAL_VALUE:g}"}
