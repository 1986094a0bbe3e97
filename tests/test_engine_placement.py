"""The placement procedure and scenarios, on a made-up game (tests/games/free_setup.rulec): free set-up
inside each side's zone, red first; replacement points spent to bring back eliminated units in cities
no enemy unit is next to; a scenario starting mid-game with its own length, units, deployment order
and options; options that exclude each other."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.engine import ScenarioError
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"
RED_ZONE = {"0101", "0102", "0103", "0104", "0201", "0202", "0203", "0204", "0205"}  # 0105: r3 set up there


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAMES / "free_setup.rulec"))


def places(state) -> set[tuple[str, str]]:
    """Every (unit, hex) placement open now, through the two steps: `place UNIT`, then `place UNIT HEX`."""
    found = set()
    for first in state.legal_actions():
        if first.kind == "place":
            assert first.hex is None  # the first step names the unit only
            second = state.clone()
            second.apply_action(first)
            found |= {(a.unit, a.hex) for a in second.legal_actions() if a.kind == "place"}
    return found


def test_free_set_up_inside_the_zone_red_first_then_blue(game):
    state = new_game(game)
    assert state.phase.id == "red_setup" and state.status("r1") == "pending"
    assert places(state) == {(u, h) for u in ("r1", "r2") for h in RED_ZONE}
    with pytest.raises(IllegalAction):
        state.apply_action(Action.place("r1", "0303"))  # outside red's zone
    state.apply_action(state.parse_action("place r1 0203"))
    assert state.positions["r1"] == "0203"
    assert places(state) == {("r2", h) for h in RED_ZONE - {"0203"}}  # one place at a time; 0203 is full
    state.apply_action(Action.place("r2", "0204"))
    # The pool is empty: only the end of the phase is left, and blue sets up next.
    assert state.legal_actions() == [Action.end()]
    state.apply_action(Action.end())
    assert state.phase.id == "blue_setup" and {u for u, _ in places(state)} == {"b1"}
    state.apply_action(Action.place("b1", "0501"))
    state.apply_action(Action.end())
    # No replacements on turn 1 (its `when` fails): red moves, and its placed units move like any other.
    assert state.phase.id == "red_move"
    assert state.is_legal(Action.move("r1", "0303"))


def test_a_set_up_pool_tells_units_waiting_for_placement_from_reinforcements(game):
    """Blue's set-up pool is `select(u in units(status = pending) where awaiting_placement(u))`: b1 (set up
    free) waits to be placed; b3, pending too, waits for its turn of arrival and is not offered."""
    state = new_game(game)
    state.apply_action(Action.place("r1", "0203"))
    state.apply_action(Action.end())
    assert state.phase.id == "blue_setup"
    assert state.status("b3") == "pending" and not state.awaiting_placement("b3")
    assert state.awaiting_placement("b1")
    assert {u for u, _ in places(state)} == {"b1"}
    state.apply_action(Action.place("b1", "0501"))
    assert not state.awaiting_placement("b1")  # placed: on the map


def test_units_set_up_freely_never_arrive_by_movement(game):
    state = new_game(game).arrange({"r1": "pending", "b2": "0605"}, phase="red_move")
    assert not [a for a in state.legal_actions() if a.unit == "r1"]


def test_replacement_points_bring_back_eliminated_units_in_cities_away_from_the_enemy(game):
    state = new_game(game).arrange({"r3": "0105", "b1": "0402", "b2": "0605"}, turn=2, phase="red_move")
    state.where.update({"r1": "eliminated", "r2": "eliminated"})  # lost earlier in the game
    state.apply_action(Action.end())  # red_move
    state.apply_action(Action.end())  # blue_move -> turn 3
    assert (state.turn, state.phase.id) == (3, "red_replacements")
    # Cities 0301, 0303, 0305; 0303 is next to b1 in 0402. 2 points: r1 (strength 2) or r2 (strength 1).
    assert places(state) == {(u, h) for u in ("r1", "r2") for h in ("0301", "0305")}
    state.apply_action(Action.place("r2", "0301"))
    assert state.status("r2") == "map" and state.points_left == 1
    # 1 point left: r1 costs 2, so nothing more can be placed.
    assert state.legal_actions() == [Action.end()]


def test_a_replacement_phase_with_nothing_to_place_is_passed(game):
    state = new_game(game).arrange({"r3": "0105", "b2": "0605"}, turn=2, phase="blue_move")
    state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (3, "red_move")  # red_replacements had no eliminated unit


def test_a_scenario_starts_mid_game_with_its_own_units_deployment_length_and_vp(game):
    state = new_game(game, scenario="counterattack")
    # Its deployment first, blue before red, then its start phase: red's movement of turn 2.
    assert (state.turn, state.phase.id) == (2, "blue_setup") and state.vp == {"red": 0, "blue": 4}
    state.apply_action(Action.place("b1", "0501"))
    state.apply_action(Action.end())
    assert state.phase.id == "red_setup"
    assert {u for u, _ in places(state)} == {"r1", "r2"}
    assert "0101" not in {h for _, h in places(state)}  # r9, which the scenario adds, stands there
    assert state.status("r3") == "unused"  # the scenario removes it
    state.apply_action(Action.end())
    assert (state.turn, state.phase.id) == (2, "red_move")
    # red_move, blue_move; turn 3: red_replacements is passed (nothing eliminated), red_move
    for _ in range(3):
        state.apply_action(Action.end())
    assert state.arrival_turn("b3") == 3  # the scenario brings it a turn early: it must enter now
    state.apply_action(next(a for a in state.moves_of("b3") if a.kind == "move"))
    state.apply_action(Action.end())
    assert state.is_terminal() and state.turn == 3  # it ends after turn 3, not the game's 4
    assert state.status("b3") == "map"  # the blue armour arrived on turn 3, a turn early
    assert new_game(game).arrival_turn("b3") == 4


def test_options_that_exclude_each_other_or_that_the_scenario_does_not_allow_are_refused(game):
    with pytest.raises(ScenarioError, match="exclude each other"):
        new_game(game, options=("air_support", "night"))
    with pytest.raises(ScenarioError, match="exclude each other"):
        new_game(game, options=("night", "air_support"))
    with pytest.raises(ScenarioError, match="not played with scenario"):
        new_game(game, options=("fog",), scenario="counterattack")
    with pytest.raises(ScenarioError, match="did you mean 'counterattack'"):
        new_game(game, scenario="counteratack")
    assert new_game(game, options=("air_support", "fog")).vp == {"red": 1, "blue": 2}
    assert new_game(game, options=("night",), scenario="counterattack").vp == {"red": 0, "blue": 5}


def test_a_refused_placement_says_why(game):
    state = new_game(game)
    assert "0303 is not a hex r1 may be placed in" in state.explain("place r1 0303")
    assert "r3 is not one of the units to place" in state.explain("place r3 0101")  # already on the map
    state.apply_action(Action.end())
    state.apply_action(Action.end())
    assert "placed only in a placement phase" in state.explain("place r1 0101")
    replacing = new_game(game).arrange({"r3": "0105", "b2": "0605"}, turn=2, phase="red_move")
    replacing.where.update({"r1": "eliminated", "r2": "eliminated"})
    replacing.apply_action(Action.end())
    replacing.apply_action(Action.end())
    replacing.apply_action(Action.place("r1", "0301"))  # 2 points spent
    assert "r2 costs 1 points to place, and 0 are left" in replacing.explain("place r2 0305")


def test_placing_a_unit_is_two_decisions_the_unit_then_its_hex(game):
    state = new_game(game)
    assert state.legal_actions() == [Action.place("r1"), Action.place("r2"), Action.end()]
    state.apply_action(state.parse_action("place r1"))
    assert state.status("r1") == "pending" and state.current_player() == 0  # red still decides: r1's hex
    assert set(state.legal_actions()) == {*(Action.place("r1", h) for h in RED_ZONE), Action.cancel()}
    assert "a hex for r1 is due" in state.explain("place r2 0203")  # not another unit
    state.apply_action(Action.cancel())  # back to the choice of unit
    assert state.legal_actions() == [Action.place("r1"), Action.place("r2"), Action.end()]
    state.apply_action(Action.place("r2"))
    state.apply_action(Action.place("r2", "0201"))
    assert state.positions["r2"] == "0201" and state.pending is None
    # Both steps in one order still work (typed orders, saved games), though the first step does not list them.
    state.apply_action(state.parse_action("place r1 0203"))
    assert state.positions["r1"] == "0203" and state.legal_actions() == [Action.end()]


def test_no_placement_decision_offers_units_times_hexes_actions(game):
    state = new_game(game)
    units, hexes = 2, len(RED_ZONE)
    assert len(state.legal_actions()) <= max(units, hexes) + 2
    state.apply_action(Action.place("r1"))
    assert len(state.legal_actions()) <= max(units, hexes) + 2


def test_a_saved_game_replays_placements_in_one_order_or_in_two(game, tmp_path):
    from rulec.players import PLAYER_KINDS
    from rulec.players.saves import SavedGame, game_hash, read_save, restore, write_save

    history = ["place r1 0203", "place r2", "cancel", "place r2", "place r2 0204", "end", "place b1 0501", "end"]
    path = tmp_path / "placed.json"
    write_save(path, SavedGame(str(GAMES / "free_setup.rulec"), [], 1, {"red": "human", "blue": "human"}, history,
                               game_hash(game)))
    saved, text = read_save(path)
    state = restore(saved, path, text, start=new_game, game=game, sides=["red", "blue"], player_kinds=PLAYER_KINDS)
    assert {u: state.positions[u] for u in ("r1", "r2", "b1")} == {"r1": "0203", "r2": "0204", "b1": "0501"}
    assert state.phase.id == "red_move"


def test_the_greedy_player_places_its_units_in_two_steps_and_never_goes_round_in_circles(game, monkeypatch):
    from rulec.players import greedy
    from rulec.players.greedy import GreedyPlayer

    # More hexes than the greedy player plays a forced reaction out over (a real set-up zone has hundreds):
    # it must still weigh each unit in each hex, not the bare choice of a unit.
    monkeypatch.setattr(greedy, "MAX_REACTION_CHOICES", 2)
    state = new_game(game)
    player = GreedyPlayer(seed=3)
    chosen = []
    while state.phase.id in ("red_setup", "blue_setup") and len(chosen) < 20:
        action = player.choose(state)
        chosen.append(action)
        state.apply_action(action)
    assert state.phase.id == "red_move"  # both set-ups over, in a handful of decisions
    assert all(state.status(u) == "map" for u in ("r1", "r2", "b1"))  # every unit set up, none left pending
    assert "cancel" not in {a.kind for a in chosen}
    assert [a.kind for a in chosen] == ["place"] * 4 + ["end"] + ["place"] * 2 + ["end"]


def test_a_game_may_name_the_scenario_played_when_none_is_chosen(tmp_path):
    """`game { scenario = NAME }`: new_game without a scenario plays that one; a misspelt name is an
    unknown scenario with a did-you-mean at its line."""
    text = (GAMES / "free_setup.rulec").read_text()
    marked = text.replace("  turns = 4\n}", "  turns = 4\n  scenario = counterattack\n}", 1)
    assert marked != text
    path = tmp_path / "default_scenario.rulec"
    path.write_text(marked)
    state = new_game(load_game(str(path)))
    assert state.scenario == "counterattack" and (state.turn, state.phase.id) == (2, "blue_setup")
    from rulec.pipeline import check, parse
    path.write_text(marked.replace("scenario = counterattack", "scenario = counterattak"))
    found = [d for d in check(parse(path))[1] if d.code == "unknown-scenario"]
    assert len(found) == 1 and "counterattack" in (found[0].hint or "") \
        and found[0].span.line == marked.splitlines().index("  scenario = counterattack") + 1


def test_a_set_up_that_places_every_unit_may_not_end_before(tmp_path):
    """`placement { all = true }`: `end` is refused, naming the units left, while a unit of the pool can
    still be placed; once none can, the phase ends as usual."""
    text = (GAMES / "free_setup.rulec").read_text()
    marked = text.replace("placement { pool = units(side = red, status = pending)  hexes = red_zone }",
                          "placement { pool = units(side = red, status = pending)  hexes = red_zone  all = true }", 1)
    assert marked != text
    path = tmp_path / "place_all.rulec"
    path.write_text(marked)
    state = new_game(load_game(str(path)))
    assert state.phase.id == "red_setup" and Action.end() not in state.legal_actions()
    assert state.may_end_phase() is False
    with pytest.raises(IllegalAction, match="every unit must be placed"):
        state.apply_action(Action.end())
    state.apply_action(Action.place("r1", "0203"))
    assert Action.end() not in state.legal_actions()  # r2 is still to place
    state.apply_action(Action.place("r2", "0204"))
    assert state.legal_actions() == [Action.end()] and state.may_end_phase() is True
    state.apply_action(Action.end())
    assert state.phase.id == "blue_setup"
