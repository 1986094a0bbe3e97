"""Turn-dependent VP for the Turn Record Track: evaluated with a context that knows only the turn."""

from __future__ import annotations

import pytest

from rulec.aids.turn_values import NeedsPlay, TurnOnlyContext, turn_dependent_awards, values_by_turn
from rulec.pipeline import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("drive_on_metz")


def award(game, award_id):
    return next(a for a in game.awards if a.id == award_id)


@pytest.mark.rule("metz:6.2")
def test_exit_vp_fall_from_seven_to_one(game):
    assert values_by_turn(award(game, "germany_exit_turn_track").amount, game.info.turns) == (7, 6, 5, 4, 3, 2, 1)


def test_constant_amounts_evaluate_but_are_not_on_the_track(game):
    assert values_by_turn(award(game, "us_metz").amount, game.info.turns) == (20,) * 7
    assert [t.award.id for t in turn_dependent_awards(game)] == ["germany_exit_turn_track"]


@pytest.mark.parametrize("award_id", ["us_east_bank", "germany_no_us_east", "germany_eliminated_strength"])
def test_amounts_that_need_play_are_left_off(game, award_id):
    # Units on the map, or the strength of the unit that triggered it: not known from the turn alone.
    assert values_by_turn(award(game, award_id).amount, game.info.turns) is None


def test_the_context_refuses_everything_but_the_turn():
    context = TurnOnlyContext(turn=3, turns=7)
    assert (context.turn, context.turns) == (3, 7)
    for ask in (lambda: context.unit, lambda: context.phasing_side, lambda: context.units(side="a"),
                lambda: context.vp("a")):
        with pytest.raises(NeedsPlay):
            ask()
