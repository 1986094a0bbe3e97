"""History queries, played (tests/games/history.rulec): awards that read what units did
this player-turn, in the last phase of a kind, and last turn, and who last entered a hex."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from history_play import end_until, red_attacks_b1

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAME = Path(__file__).resolve().parent / "games" / "history.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def sources(state, phase_id):
    return {e.source: e.amount for e in state.vp_log if e.phase == phase_id and e.turn == state.turn}


def red_attacks_with_a_moved_and_an_unmoved_unit(game):
    state = new_game(game)
    red_attacks_b1(state)
    return state


def test_an_attack_without_a_move_this_player_turn_scores_and_so_does_a_retreat(game):
    state = red_attacks_with_a_moved_and_an_unmoved_unit(game)
    end_until(state, "blue_move")
    scored = {e.source: e.amount for e in state.vp_log if e.side == "red"}
    assert scored == {"steady": 1, "routed": 1}  # r1 attacked without moving (r2 moved); b1 retreated


def test_the_last_side_to_enter_a_hex_and_the_previous_combat_phase(game):
    state = red_attacks_with_a_moved_and_an_unmoved_unit(game)
    end_until(state, "blue_move")
    state.apply_action(Action.move("b2", "0303"))
    end_until(state, "red_move", turn=2)
    scored = {e.source: e.amount for e in state.vp_log if e.side == "blue"}
    assert scored == {"held": 5, "survived": 1}  # b2 entered 0303 last; b1 was attacked in red_fight


def test_no_blue_unit_entered_the_crossroads_no_points(game):
    state = red_attacks_with_a_moved_and_an_unmoved_unit(game)
    end_until(state, "red_move", turn=2)
    assert "held" not in {e.source for e in state.vp_log}


def test_moves_of_the_previous_turn_are_remembered_for_one_turn(game):
    state = red_attacks_with_a_moved_and_an_unmoved_unit(game)
    end_until(state, "blue_move")
    assert "moved_last_turn" not in {e.source for e in state.vp_log}  # turn 1 has no previous turn
    end_until(state, "blue_move", turn=2)
    assert sources(state, "blue_move") == {"moved_last_turn": 10}  # r2 moved on turn 1
    end_until(state, "blue_move", turn=3)
    assert sources(state, "blue_move") == {}  # nobody moved on turn 2


def test_clones_keep_their_own_history(game):
    state = new_game(game)
    other = state.clone()
    state.apply_action(Action.move("r1", "0201"))
    assert state.past.did("moved", "r1", state.past.scope("this_phase"))
    assert not other.past.did("moved", "r1", other.past.scope("this_phase"))


def test_a_history_copied_again_and_again_reads_as_the_one_kept_whole():
    """The history's tables copy cheaply (a shared part and each copy's own entries, folded now and then): through a
    line of copies, each written to, every copy reads what plain tables written the same way read, and no copy
    sees another's entries."""
    from rulec.engine.records import FOLD_AT, History

    rng = random.Random(5)
    hexes = [f"{c:02d}{r:02d}" for c in range(1, 17) for r in range(1, 9)]
    past, plain = History(), {"entered": {}, "last_side": {}}
    past.owner = 1
    kept = []  # (a copy, its plain tables when made): none may change after
    for step in range(6 * FOLD_AT):
        if step % 7 == 0:
            kept.append((past, {k: dict(v) for k, v in plain.items()}))
            past = past.copy(step + 2)
        h = rng.choice(hexes)
        side = rng.choice(("red", "blue"))
        past.last_side[h] = side
        past.entered[h] = past.entered.get(h, ()) + (step,)
        plain["last_side"][h] = side
        plain["entered"][h] = plain["entered"].get(h, ()) + (step,)
    assert len(past.last_side.base) > FOLD_AT  # folded along the way
    for copy, tables in kept + [(past, plain)]:
        for h in hexes:
            assert copy.last_side.get(h, "") == tables["last_side"].get(h, "")
            assert copy.entered.get(h, ()) == tables["entered"].get(h, ())
