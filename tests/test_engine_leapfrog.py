"""The ZOC-to-ZOC exception (tests/games/leapfrog.rulec, a made-up game).

With `zoc_to_zoc = false` no unit moves directly from one enemy-controlled hex to another, but
`leave_zoc { into_zoc = CONDITION  then_stop = true }` lets a unit's first step enter an adjacent
enemy-controlled hex held by a friendly unit that began the phase there, for 1 MP more, after
which it stops. Marsh (3 MP) rings r_mover (2 MP), so it moves only by such steps.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, IllegalAction, new_game
from rulec.pipeline import check_file, load_game

GAME = Path(__file__).resolve().parent / "games" / "leapfrog.rulec"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME))


def costs(state, uid="r_mover"):
    return {a.hex: state.move_cost(uid, a.hex) for a in state.moves_of(uid) if a.kind == "move"}


def with_leave(game, **changes):
    return replace(game, movement=replace(game.movement, leave_zoc=replace(game.movement.leave_zoc, **changes)))


def test_a_unit_may_leapfrog_into_an_enemy_controlled_hex_held_by_a_friend_that_has_not_moved(game):
    state = new_game(game)
    assert {"0401", "0402", "0503"} <= state.enemy_zoc("red")
    assert costs(state) == {"0503": 2}  # one step and the rule's 1 MP; 0401 holds no friend
    with pytest.raises(IllegalAction):
        state.apply_action(Action.move("r_mover", "0401"))
    state.apply_action(Action.move("r_mover", "0503"))
    assert set(state.units_at("0503")) == {"r_mover", "r_anchor"}


def test_without_the_exception_no_unit_moves_from_one_enemy_controlled_hex_to_another(game):
    assert costs(new_game(replace(game, movement=replace(game.movement, leave_zoc=None)))) == {}


def test_a_friend_that_moved_into_the_hex_this_phase_does_not_open_it(game):
    state = new_game(game).arrange({"r_mover": "0402", "r_anchor": "0504", "b_line": "0502"}, turn=1, phase="red_move")
    state.apply_action(Action.move("r_anchor", "0503"))
    assert costs(state) == {}


def test_then_stop_ends_the_move_after_the_leap(game):
    # Under extra_cost (no extra MP) a unit could move on out of the enemy ZOC; then_stop holds it in 0503.
    extra = replace(game, movement=replace(game.movement, zoc="extra_cost", zoc_extra_cost=0))
    assert costs(new_game(with_leave(extra, cost=0))) == {"0503": 1}
    assert costs(new_game(with_leave(extra, cost=0, then_stop=False))) == {"0503": 1, "0504": 2, "0603": 2}


def test_into_zoc_true_still_opens_every_enemy_controlled_hex(game):
    assert costs(new_game(with_leave(game, into_zoc=True))) == {"0401": 2, "0503": 2}


def test_leave_zoc_needs_zoc_locks_start_or_no_zoc_to_zoc(tmp_path):
    path = tmp_path / "leapfrog.rulec"
    path.write_text(GAME.read_text(encoding="utf-8").replace("zoc_to_zoc = false", "zoc_to_zoc = true"), encoding="utf-8")
    found = check_file(str(path)).diagnostics
    assert [d.code for d in found] == ["field-alone"]
    assert "'zoc_locks_start = true' or 'zoc_to_zoc = false'" in found[0].message


def test_a_refused_zoc_to_zoc_step_says_so(game):
    with pytest.raises(IllegalAction) as error:
        new_game(game).apply_action(Action.move("r_mover", "0401"))
    assert "may not move directly from one enemy-controlled hex (0402) to another (0401)" in error.value.message
