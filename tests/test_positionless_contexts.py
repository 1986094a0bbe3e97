"""Expressions answered without a game's position: from final scores alone (engine/scores_context.py: a result
decided, or an AI's victory margin) or in a position an AI makes up to weigh an award (runtime/context.py,
StandInContext). What they can answer, they answer as play does; what needs the position says so. Found by the
mutation round over the expression runtime (tests/test_expression_faults.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from game_expressions import evaluate
from game_variants import variant

from rulec.engine import EngineContext, new_game, victory
from rulec.engine.scores_context import ScoresContext
from rulec.pipeline import load_game
from rulec.players.evaluation import Evaluator
from rulec.runtime.context import StandInContext

GAMES = Path(__file__).parent / "games"


def test_objectives_are_the_hexes_of_control_of_too_in_every_context():
    """crossroads tracks who holds 0404 through movement { control_of } alone, with no award: `objectives` names it
    in play, from scores alone and in a made-up position (docs/language.md: those of holds awards and of
    control_of)."""
    game = load_game(str(GAMES / "crossroads.rulec"))
    for context in (EngineContext(new_game(game)), ScoresContext(game, {}), StandInContext(game=game)):
        assert evaluate(game, context, "count(objectives)") == 1, type(context).__name__
        assert evaluate(game, context, "count(h in objectives where distance(h, 0404) == 0)") == 1


def test_a_made_up_position_finds_units_in_a_map_edge_as_play_does():
    """`units(zone = west)` names a map edge of mandatory_combat: the unit standing on it is found in a position an
    AI makes up, as in play."""
    game = load_game(str(GAMES / "mandatory_combat.rulec"))
    inf = game.units["inf"]
    made_up = StandInContext(placed=[(inf, "0101")], game=game)
    assert evaluate(game, made_up, "count(units(zone = west))") == 1
    assert evaluate(game, made_up, "count(units(zone = east))") == 0
    played = EngineContext(new_game(game).arrange({"inf": "0101"}, phase="blue_move"))
    assert [u.id for u in evaluate(game, played, "units(zone = west)")] == ["inf"]


def test_the_ai_draws_units_to_a_map_edge_a_phase_award_counts_them_in(tmp_path):
    """An award each phase for the units standing on the east edge is an objective of the AI's, on those hexes."""
    game = variant(tmp_path, "mandatory_combat", ("edges { west = 0101..0106  east = 0601..0606 }",
                                                  "edges { west = 0101..0106  east = 0601..0606 }\n}\n"
                                                  "award on_the_edge { side = blue  when = phase(blue_move)  "
                                                  "amount = count(units(side = blue, zone = east))"))
    drawn = [o for o in Evaluator(game).objectives if o.side == "blue" and o.recurring]
    assert [sorted(o.targets) for o in drawn] == [[f"06{row:02d}" for row in range(1, 7)]]


def test_a_level_that_reads_the_position_says_so_when_decided_from_scores_alone(tmp_path):
    """From scores alone a level that counts units cannot be decided: the error says it reads the position, whatever
    filters its units(...) names (not a TypeError about the filter's name)."""
    game = load_game(str(GAMES / "twice_the_enemy.rulec"))
    scores = ScoresContext(game, {"red": 3, "blue": 2})
    for source in ("count(units()) > 0", "count(units(side = red)) > 0", "count(units(side = red, zone = west)) > 0"):
        with pytest.raises(ValueError, match="reads the position"):
            evaluate(game, scores, f"vp(red) > vp(blue) and {source}")
    assert victory.outcome(game, {"red": 3, "blue": 2}).winner is not None
