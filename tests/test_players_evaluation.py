"""The greedy player's evaluation: objectives read from the compiled awards and the engine's tables, and
positions scored from the last one scored in full exactly as if scored afresh."""

from __future__ import annotations

import random

import pytest

from rulec.engine import new_game
from rulec.engine.position import holders_changed
from rulec.players import GreedyPlayer, RandomPlayer
from rulec.players.evaluation import Evaluator, zones_counted
from rulec.players.base import legal_orders
from rulec.players.greedy import REACTION_DEPTH, phase_key, resolve
from rulec.players.victory_margin import VictoryMargin
from rulec.compile.codegen import generate_module
from rulec.pipeline import GAMES_DIR, SUFFIX, load_compiled, load_game
from rulec.players.match import play_match
from made_up_maps import made_up_map_game


def test_zones_come_from_the_amounts_parse_tree(metz):
    awards = {a.id: a for a in metz.awards}
    assert zones_counted(awards["us_east_bank"]) == ["east_bank"]
    assert zones_counted(awards["germany_no_us_east"]) == ["east_bank"]  # inside if(...) == 0
    assert zones_counted(awards["us_metz"]) == []


def test_the_zones_an_amount_counts_are_the_checkers_and_kept_by_its_module(tmp_path):
    """The checker reads the zones from the amount's parse tree, wherever the call stands (in a `where`
    condition too); the compiled module keeps them, so the AI reads them without parsing the amount again."""
    text = open(GAMES_DIR / f"drive_on_metz{SUFFIX}", encoding="utf-8").read()
    old = "amount = count(units(side = us, zone = east_bank))"
    assert old in text
    text = text.replace(old, "amount = count(units(side = us, zone = east_bank)) + count(u in units(side = us) "
                             "where count(units(side = germany, zone = central_group)) > 0)")
    assert "central_group" in text  # (a zone of the game)
    path = tmp_path / f"zones{SUFFIX}"
    path.write_text(text, encoding="utf-8")
    game = load_game(str(path))
    assert {a.id: a for a in game.awards}["us_east_bank"].amount.zones == ("east_bank", "central_group")
    module = tmp_path / "zones.py"
    module.write_text(generate_module(game), encoding="utf-8")
    kept = {a.id: a for a in load_compiled(module).awards}
    assert kept["us_east_bank"].amount.zones == ("east_bank", "central_group")
    assert kept["germany_no_us_east"].amount.zones == ("east_bank",)
    assert kept["us_metz"].amount.zones == ()


def test_a_river_crossing_costs_the_units_whole_allowance():
    """In the made-up game a river runs east of column 6, bridged by roads on rows 2 and 6; clear costs 1 MP."""
    game = made_up_map_game(12, 8, 8)
    objective = next(o for o in Evaluator(game).objectives if o.side == "west" and o.recurring)
    assert objective.distance(1)["0704"] == 0  # in the zone
    assert objective.distance(1)["0604"] == 1  # across the river: a 1-MP unit's whole move
    assert objective.distance(10)["0604"] == 3  # a 10-MP unit is better off walking to the bridge on row 6


def test_road_and_terrain_costs_are_the_engines(metz):
    """Metz (0807) is entered from 0707 along a road: 1 MP as the engine's tables say."""
    objective = next(o for o in Evaluator(metz).objectives if o.side == "us" and o.value == 20)
    assert objective.distance(4)["0807"] == 0
    from rulec.engine.tables import tables_for

    assert objective.distance(4)["0708"] == tables_for(metz).entry[("0708", "0807")].cost


@pytest.mark.parametrize("which", ["metz", "made_up"])
def test_scoring_from_the_last_full_score_equals_scoring_afresh(which, metz):
    game = metz if which == "metz" else made_up_map_game(12, 8, 24)
    state = new_game(game, seed=3)
    play_match(state, [GreedyPlayer(1), RandomPlayer(2)], seed=3, max_turns=2)
    warm = Evaluator(game)
    rng = random.Random(5)
    compared = 0
    while not state.is_terminal() and compared < 400:
        actions = legal_orders(state)
        for action in rng.sample(actions, min(8, len(actions))):
            child = state.clone()
            child.apply_action(action)
            for seat in range(len(state.players)):
                assert warm.score(child, seat) == pytest.approx(Evaluator(game).score(child, seat), abs=1e-9)
                compared += 1
        state.apply_action(rng.choice(actions) if not state.is_chance_node() else state.chance_outcomes()[0][0])
    assert compared >= 100


@pytest.mark.parametrize("which", ["metz", "made_up"])
def test_a_moves_quick_value_is_the_score_of_the_position_it_makes(which, metz):
    """Evaluator.move_values (no clone, no engine) scores each move as scoring the position after it afresh,
    but for the VP the engine scores at once (entering a hex an award pays for holding: the greedy player
    always plays those moves out)."""
    game = metz if which == "metz" else made_up_map_game(12, 8, 24)
    state = new_game(game, seed=3)
    play_match(state, [RandomPlayer(1), RandomPlayer(2)], seed=3, max_turns=2)
    weighed = 0
    while weighed < 200 and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        actions = legal_orders(state)
        moves = [a for a in actions if a.kind == "move"]
        if moves and state.pending is None:
            seat = state.current_player()
            quick = Evaluator(game).move_values(state, seat, [(m.unit, m.hex) for m in moves])
            for move, value in zip(moves, quick):
                child = state.clone()
                child.apply_action(move)
                scored_at_once = margin(child, seat) - margin(state, seat)
                # what the engine scores at once is a hex an award pays for holding, ended in or passed on the way
                assert all(entry.hex in Evaluator(game).held_hexes for entry in child.vp_log[len(state.vp_log):])
                assert value + scored_at_once == pytest.approx(Evaluator(game).score(child, seat), abs=1e-9), move
            weighed += len(moves)
        state.apply_action(moves[0] if moves else actions[-1])
    assert weighed >= 200


def margin(state, seat: int) -> float:
    """The seat's margin on its VP so far, as the game's victory conditions measure it."""
    return VictoryMargin(state.game).margin(state.vp, state.players[seat])


def test_the_greedy_player_plays_out_the_best_moves_by_their_quick_value(metz, monkeypatch):
    """Of many moves only a few are played out on clones; the best of them is the best of all of them."""
    from rulec.players import greedy

    state = new_game(metz, seed=2)
    play_match(state, [RandomPlayer(1), RandomPlayer(2)], seed=2, max_turns=1)
    while state.phase.kind != "movement" or state.pending is not None:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    actions, seat = legal_orders(state), state.current_player()
    player, evaluator = GreedyPlayer(1), Evaluator(metz)
    kept = greedy.shortlist(state, actions, seat, evaluator)
    moves = [i for i, a in enumerate(actions) if a.kind == "move"]
    assert len(moves) > greedy.MOVES_PLAYED_OUT
    held = [i for i in moves if actions[i].hex in evaluator.held_hexes]
    assert greedy.MOVES_PLAYED_OUT <= len([i for i in kept if actions[i].kind == "move"]) <= greedy.MOVES_PLAYED_OUT + len(held)
    assert set(held) <= set(kept)
    assert {i for i, a in enumerate(actions) if a.kind != "move"} <= set(kept)  # `end` and the rest, always
    value = [player.action_value(state, a, seat, evaluator) for a in actions]
    assert max(value[i] for i in kept) == pytest.approx(max(value), abs=1e-9)


def test_a_position_met_again_by_another_order_of_moves_keeps_its_outlook(metz):
    """Two moves made in either order end in one position: its outlook is worked out once, and is the one a
    fresh evaluator finds; a position that differs (one move only) is worked out anew."""
    state = new_game(metz, seed=2)
    while state.is_chance_node() or len({a.unit for a in legal_orders(state) if a.kind == "move"}) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else legal_orders(state)[-1])
    moves = [a for a in legal_orders(state) if a.kind == "move"]
    first = moves[0]
    second = next(a for a in moves if a.unit != first.unit and a.hex != first.hex)
    one, other, alone = state.clone(), state.clone(), state.clone()
    for step in (first, second):
        one.apply_action(step)
    for step in (second, first):
        other.apply_action(step)
    alone.apply_action(first)
    assert one.pos == other.pos and one is not other
    seat = state.current_player()
    warm = Evaluator(metz)
    value = warm.outlook(one, seat)
    kept = len(warm._outlooks)
    assert warm.outlook(other, seat) == value == pytest.approx(Evaluator(metz).outlook(other, seat), abs=1e-9)
    assert len(warm._outlooks) == kept  # met again: not worked out again
    assert warm.outlook(alone, seat) == pytest.approx(Evaluator(metz).outlook(alone, seat), abs=1e-9)
    assert len(warm._outlooks) == kept + 1


def test_a_position_whose_towns_changed_hands_is_not_taken_for_the_one_met_before(metz):
    """The outlook's key tells who holds what by what differs from the position decided on: the same units with a
    town held by the other side (or by nobody) is another position; the same holders in a new dict is the same."""
    state = new_game(metz, seed=2)
    evaluator = Evaluator(metz)
    evaluator.focus(state)
    seat = state.current_player()
    town = next(iter(state.holders))
    same, taken, lost = state.clone(), state.clone(), state.clone()
    same.holders = dict(state.holders)
    taken.holders[town] = next(s for s in metz.sides if s != state.holders[town])
    del lost.holders[town]
    for changed in (taken, lost):  # (as the engine does: a new version of the holders, GameState.holders_version)
        holders_changed(changed)
    keys = [evaluator._outlook_key(s, seat) for s in (state, same, taken, lost)]
    assert keys[0] == keys[1] and len({keys[0], keys[2], keys[3]}) == 3


def test_a_candidates_own_position_is_not_remembered_but_one_after_a_roll_is(metz):
    """A greedy player's candidates each end in a position of their own: their outlooks are not kept (nor their keys
    made); the positions after a battle's rolls, which two plans may share, are. The values are the same either way."""
    state = new_game(metz, seed=2)
    while state.is_chance_node() or len([a for a in legal_orders(state) if a.kind == "move"]) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else legal_orders(state)[-1])
    seat = state.current_player()
    evaluator, player = Evaluator(metz), GreedyPlayer(0)
    evaluator.focus(state)
    move = next(a for a in legal_orders(state) if a.kind == "move")
    value = player.action_value(state, move, seat, evaluator)
    assert evaluator._outlooks == {}
    child = state.clone()
    child.apply_action(move)
    assert value == pytest.approx(Evaluator(metz).outlook(child, seat), abs=1e-9)
    assert evaluator.outlook(child, seat, remember=False) == value and evaluator._outlooks == {}
    assert evaluator.outlook(child, seat) == value and len(evaluator._outlooks) == 1

    rng = random.Random(4)  # on to a battle about to be rolled
    while not state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            pytest.fail("no battle in the game")
    evaluator.focus(state)
    resolve(state, 0, evaluator, REACTION_DEPTH, phase_key(state))
    assert evaluator._outlooks  # the positions after the rolls


@pytest.mark.parametrize("which", ["metz", "made_up"])
def test_move_values_kept_from_the_last_decision_equal_those_worked_out_afresh(which, metz, monkeypatch):
    """A greedy player weighs every move again at each decision of a movement phase: what a move changes is kept
    from the last decision but within two hexes of where a unit moved (or was replaced) since. At every decision of
    two greedy players' game the values are those a fresh evaluator finds, to the last bit, and many were kept."""
    game = metz if which == "metz" else made_up_map_game(24, 16, 40)
    evaluator = Evaluator(game)
    weighed = worked_out = decisions = 0
    move_values, move_change = Evaluator.move_values, Evaluator._move_change

    def checked(self, state, seat, moves):
        nonlocal weighed, decisions
        found = move_values(self, state, seat, moves)
        if self is evaluator:
            fresh = Evaluator(game)
            assert found == pytest.approx(move_values(fresh, state, seat, moves), abs=1e-9)
            # what each move changes (but the awards paid at the end, worked out each time), to the last bit
            assert self._move_changes[2] == fresh._move_changes[2], state.history()[-3:]
            weighed += len(moves)
            decisions += 1
        return found

    def counted(self, *args):
        nonlocal worked_out
        worked_out += self is evaluator
        return move_change(self, *args)

    monkeypatch.setattr(Evaluator, "move_values", checked)
    monkeypatch.setattr(Evaluator, "_move_change", counted)
    play_match(new_game(game, seed=4), [GreedyPlayer(1, evaluator), GreedyPlayer(2, evaluator)], seed=4, max_turns=8)
    assert decisions >= 25
    assert worked_out <= weighed * 3 / 4  # a quarter or more kept (most, on a wider front: The Marne's two thirds)


def test_move_values_are_worked_out_afresh_when_the_turns_left_change():
    """The same units where they stood, a turn later: what a move is worth to a unit's objectives counts the turns
    left (the made-up game's zone pays each turn), so nothing is kept from the decision before."""
    game = made_up_map_game(12, 8, 24)
    state = new_game(game, seed=2)
    while state.phase.kind != "movement" or state.pending is not None:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    seat, moves = state.current_player(), [(a.unit, a.hex) for a in legal_orders(state) if a.kind == "move"]
    warm = Evaluator(game)
    warm.move_values(state, seat, moves)
    earlier = warm._move_changes[2]
    later = state.clone()
    later.turn += 1
    fresh = Evaluator(game)
    assert warm.move_values(later, seat, moves) == pytest.approx(fresh.move_values(later, seat, moves), abs=1e-9)
    assert warm._move_changes[2] == fresh._move_changes[2] != earlier


def test_a_position_whose_holders_differ_is_scored_in_full_once_and_the_others_still_from_theirs(monkeypatch):
    """Taking a town an award pays for at the end changes what every unit's term reads (who holds the towns): that
    position is scored in full; the next one, the town as it was, is scored from the position scored before it,
    and the town taken again from the first, neither in full again."""
    game = load_game(str(GAMES_DIR.parent / "tests" / "games" / f"final_towns{SUFFIX}"))
    state, rng = new_game(game, seed=5), random.Random(5)
    while True:  # a movement decision with a move that takes a town, and one that does not
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        orders = legal_orders(state)
        moves = [a for a in orders if a.kind == "move"] if state.pending is None else []
        takes = [m for m in moves if _after(state, m).holders != state.holders]
        if takes:
            break
        state.apply_action(rng.choice(orders))
    other = next(m for m in moves if _after(state, m).holders == state.holders)
    seat, warm = state.current_player(), Evaluator(game)
    warm.score(state, seat)
    full = []
    score_in_full = Evaluator._score_in_full
    monkeypatch.setattr(Evaluator, "_score_in_full",
                        lambda self, *a: (self is warm and full.append(a)) or score_in_full(self, *a))
    counted = []
    for move in (takes[0], other, takes[0]):
        child = _after(state, move)
        assert warm.score(child, seat) == pytest.approx(Evaluator(game).score(child, seat), abs=1e-9)
        counted.append(len(full))
    assert counted == [1, 1, 1]  # the town taken, once; the other move and the town again: from the kept positions


def _after(state, action):
    child = state.clone()
    child.apply_action(action)
    return child


def test_units_alike_share_an_objective_value_unless_an_award_asks_about_the_unit():
    """A unit's pull toward the objectives is the same for every unit of its side, allowance and type in one hex,
    and is kept for them all; but where an award's `only` asks about the unit (its strength, here), each unit is
    weighed as itself, whichever is asked first."""
    from dataclasses import replace
    from pathlib import Path

    games = Path(__file__).resolve().parent / "games"
    game = load_game(str(games / "breakout.rulec"))
    evaluator = Evaluator(game)
    assert evaluator.objectives and all(o.only is None for o in evaluator.objectives)
    unit = next(u for u in game.units.values() if u.side == evaluator.objectives[0].side)
    hex_ = next(iter(evaluator.objectives[0].distance(unit.move, unit.type)))
    first = evaluator._best_objective(unit, hex_, 3)
    kept = len(evaluator._best_cache)
    twin = replace(unit, id=unit.id + "_twin", strength=unit.strength + 1)
    assert evaluator._best_objective(twin, hex_, 3) == first and len(evaluator._best_cache) == kept

    game = load_game(str(games / "quantified_awards.rulec"))
    strong = game.units["r2"]  # armour of strength 5: the exit award pays for it
    weak = replace(strong, id="r2_weak", strength=4)  # the same side, allowance and type: the award pays nothing
    objective = next(o for o in Evaluator(game).objectives if o.edges)
    assert objective.only is not None
    hexes = sorted(objective.distance(strong.move, strong.type))
    for order in ((strong, weak), (weak, strong)):
        evaluator = Evaluator(game)
        values = {(unit.id, h): evaluator._best_objective(unit, h, 3) for h in hexes for unit in order}
        assert all(values[("r2", h)] >= values[("r2_weak", h)] for h in hexes)
        assert any(values[("r2", h)] > values[("r2_weak", h)] for h in hexes)  # near the edge it leaves by
