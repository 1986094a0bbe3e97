"""The evaluator reads what the awards paid at the end value (hexes held or stood in, units off the map)
and measures the margin the way the victory conditions do (a ratio as a ratio)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.diagnostics import DiagnosticError
from rulec.engine import new_game
from rulec.engine.tables import tables_for
from rulec.language.parse import parse_text
from rulec.pipeline import check, load_game
from rulec.players import GreedyPlayer, RandomPlayer
from rulec.players.evaluation import Evaluator
from rulec.players.final_awards import CONTROL, STAND, FinalAwards
from rulec.players.match import play_match
from rulec.players.victory_margin import VictoryMargin

GAMES = Path(__file__).parent / "games"
RATIO = GAMES / "ratio_victory.rulec"
# The same game won by the larger score: Red wins while ahead, Blue otherwise.
DIFFERENCE_LEVELS = """victory {
  level red_win  { when = vp(red) > vp(blue)  winner = red   name = "Red Victory" }
  level blue_win { when = true  winner = blue  name = "Blue Victory" }
}"""


def _compiled(text: str, name: str):
    game, diagnostics = check(parse_text(text, name))
    if game is None:
        raise DiagnosticError([d for d in diagnostics if d.is_error])
    return game


def _difference_game():
    text = RATIO.read_text()
    start = text.index("\nvictory {") + 1
    end = text.index("}\n}", start) + 3
    return _compiled(text[:start] + DIFFERENCE_LEVELS + text[end:], "difference_victory.rulec")


def test_the_margin_is_measured_as_the_victory_levels_measure_it():
    ratio = VictoryMargin(load_game(str(RATIO)))
    # Red wins while it has twice Blue's VP: Blue needs 7 against 12 (4 more), 5 against 8.
    assert ratio.margins({"red": 12, "blue": 3}) == {"red": 4, "blue": -4}
    assert ratio.margins({"red": 8, "blue": 0}) == {"red": 5, "blue": -5}
    # A Blue VP moves the result as much as two Red ones.
    assert ratio.margin({"red": 12, "blue": 4}, "blue") - ratio.margin({"red": 12, "blue": 3}, "blue") == 1
    assert ratio.margin({"red": 10, "blue": 3}, "blue") - ratio.margin({"red": 12, "blue": 3}, "blue") == 1
    difference = VictoryMargin(_difference_game())
    assert difference.margins({"red": 12, "blue": 3}) == {"red": 9, "blue": -9}


def test_awards_paid_at_the_end_count_in_the_position_as_it_stands():
    game = load_game(str(RATIO))
    state = new_game(game)
    evaluator = Evaluator(game)
    assert evaluator.projected_vp(state) == {"red": 5, "blue": 0}  # 1 from the scenario, the depot's 4
    state.apply_action(state.parse_action("move b1 0402"))
    assert evaluator.projected_vp(state) == {"red": 5, "blue": 3}
    state.apply_action(state.parse_action("end"))
    while not state.is_terminal():  # Red's sentry stays put: the awards pay what the evaluator foresaw
        state.apply_action(state.parse_action("end"))
    assert state.vp == {"red": 5, "blue": 3}


@pytest.mark.parametrize("measure, chosen", [("ratio", "move b1 0402"), ("difference", "move b1 0202")])
def test_greedy_takes_the_hex_the_victory_measure_rewards(measure, chosen):
    """Blue takes the village (its own 3 VP) when the ratio decides, the depot (Red's 4) when the difference does."""
    game = load_game(str(RATIO)) if measure == "ratio" else _difference_game()
    state = new_game(game)
    assert state.action_to_string(GreedyPlayer(0).choose(state)) == chosen


def test_an_exit_paid_at_the_end_draws_the_unit_to_its_edge():
    game = load_game(str(GAMES / "final_exits.rulec"))
    evaluator = Evaluator(game)
    assert [(o.side, o.edges, o.value) for o in evaluator.objectives] == [("blue", ("east",), 4.0)]
    state = new_game(game)
    assert state.action_to_string(GreedyPlayer(0).choose(state)) in ("move b1 0501", "move b1 0502", "move b1 0503")
    result = play_match(new_game(game), [RandomPlayer(1), GreedyPlayer(2)], seed=1)
    assert result.state.exited_from["b1"] in game.map.edges["east"]  # (what Red's random unit does is its own)
    assert result.state.vp["blue"] == 4  # paid at the end, as read


def test_hexes_paid_together_once_are_one_group():
    """The Marne's towns pay each for itself; Paris pays Germany once for a supplied unit in any of its hexes,
    and the Allies once for holding any of them."""
    marne = load_game("the_marne")
    final = FinalAwards(marne, tables_for(marne).objectives)
    paris = frozenset(marne.map.zones["paris"])
    by_key = {(g.actor, g.by, g.hexes): g.value for g in final.groups}
    assert by_key[("germany", STAND, paris)] == 25
    assert by_key[("allies", CONTROL, paris)] == 25
    towns = [g for g in final.groups if g.by == CONTROL and len(g.hexes) == 1 and g.actor == "germany"]
    assert {h for g in towns for h in g.hexes} == {h for n in (1, 2, 3, 5) for h in marne.map.zones[f"towns_vp_{n}"]}
    assert {(side, edge) for side, edges in final.exit_edges.items() for edge in edges} == {("germany", "south"), ("allies", "north")}


def test_a_town_paid_for_at_the_end_draws_units_while_its_side_does_not_hold_it():
    """The west town is worth more, but Blue holds it already: the column marches on the east town and takes it."""
    game = load_game(str(GAMES / "final_towns.rulec"))
    state = new_game(game)
    assert Evaluator(game).projected_vp(state) == {"red": 0, "blue": 3}
    assert state.action_to_string(GreedyPlayer(0).choose(state)) in ("move b1 0501", "move b1 0502")
    result = play_match(new_game(game), [RandomPlayer(1), GreedyPlayer(2)], seed=1)
    assert result.state.holders == {"0102": "blue", "0702": "blue"}
    assert result.state.vp["blue"] == 5


def test_levels_that_read_the_position_leave_the_margin_a_vp_difference():
    """Scores alone cannot decide a level that asks who holds a hex (here only once Red leads by 5): the margin
    falls back to the VP difference rather than fail."""
    text = RATIO.read_text()
    start = text.index("\nvictory {") + 1
    end = text.index("}\n}", start) + 3
    levels = """victory {
  level red_win  { when = vp(red) >= vp(blue) + 5 and controls(red, 0202)  winner = red   name = "Red Victory" }
  level blue_win { when = true  winner = blue  name = "Blue Victory" }
}"""
    margin = VictoryMargin(_compiled(text[:start] + levels + text[end:], "position_victory.rulec"))
    assert margin.margins({"red": 12, "blue": 3}) == {"red": 9, "blue": -9}
    assert margin.margins({"red": 0, "blue": 0}) == {"red": 0, "blue": 0}


def test_what_the_towns_held_pay_is_kept_for_the_holders_but_not_past_a_change():
    """What the holders pay is kept while they stay the same (most positions an AI weighs), and worked out again
    when a town changes hands, even in the very dict asked about before; the answers are a fresh reader's."""
    marne = load_game("the_marne")
    final = FinalAwards(marne, tables_for(marne).objectives)
    fresh = lambda holders: FinalAwards(marne, tables_for(marne).objectives).paid({}, holders, {})  # noqa: E731
    town = next(next(iter(g.hexes)) for g in final.groups if g.by == CONTROL and len(g.hexes) == 1
                and g.actor == "germany")
    holders = {town: "allies"}
    before = final.paid({}, holders, {})
    assert before == fresh(holders) and final.paid({}, dict(holders), {}) == before
    holders[town] = "germany"  # in place
    after = final.paid({}, holders, {})
    assert after == fresh(holders) and after["germany"] > before["germany"]
    after["germany"] += 100  # an answer the caller changes is its own
    assert final.paid({}, holders, {}) == fresh(holders)


def test_what_the_units_that_left_the_map_pay_is_kept_for_them_but_not_past_another_leaving():
    """What the units gone off the map pay is kept while they stay the same (most positions an AI weighs), and
    worked out again when another leaves, even in the very dict asked about before; the answers are a fresh
    reader's."""
    game = load_game(str(GAMES / "final_exits.rulec"))
    final = FinalAwards(game, tables_for(game).objectives)
    fresh = lambda exited: FinalAwards(game, tables_for(game).objectives).paid({}, {}, exited)  # noqa: E731
    edge = game.map.edges["east"][0]
    exited: dict = {}
    before = final.paid({}, {}, exited)
    assert before == fresh(exited)
    exited["b1"] = edge  # in place
    after = final.paid({}, {}, exited)
    assert after == fresh(exited) and after["blue"] > before["blue"]
    assert final.paid({}, {}, dict(exited)) == after
    del exited["b1"]
    assert final.paid({}, {}, exited) == before


def test_who_stands_where_is_read_from_the_engines_occupied_hexes_as_the_units_stand():
    """The awards paid at the end ask who stands in a hex (a German unit in Paris): read from the engine's occupied
    hexes, kept from position to position, it is what the units' hexes say, at every step of a random game."""
    import random

    from rulec.players import view
    from rulec.players.evaluation import _sides_at

    marne = load_game("the_marne")
    state, rng = new_game(marne, seed=4), random.Random(4)
    for _ in range(400):
        if state.is_terminal():
            break
        read = _sides_at(state)
        expected: dict = {}
        for uid, h in view.unit_hexes(state).items():
            expected.setdefault(h, set()).add(state.unit(uid).side)
        assert all(read.get(h, set()) == expected.get(h, set()) for h in marne.map.hexes)
        state.apply_action(state.sample_legal_action(rng) if not state.is_chance_node()
                           else rng.choice(state.chance_outcomes())[0])
