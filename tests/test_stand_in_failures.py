"""What asking an expression outside play may fall back on, and what it must let through.

The AIs, the aids and the checker ask awards and conditions of made-up positions (rulec.runtime.context's
StandInContext and its kin), which cannot answer everything a game in progress can. Each asker falls back to a guess
when the expression failed (ExpressionFailed: the Python error of the expression itself, turned by Expr) or the
stand-in has no answer (NotImplementedError). Any other error is rulec's own: a fallback there would make an AI play,
or an aid print, something else without a word (as a compiled-only type error once did: issue 19), so it must show.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.aids import vp_range
from rulec.check import references
from rulec.engine import tables
from rulec.pipeline import load_game
from rulec.players import evaluation, variable_goals
from rulec.players.final_awards import FinalAwards
from rulec.runtime.context import StandInContext
from rulec.runtime.model import Expr

GAMES = Path(__file__).parent / "games"


class RulecBug(RuntimeError):
    """Stands for an error of rulec's own code (not the expression's), raised while an expression is asked."""


def _divides_by_zero(context):
    return 1 / 0  # the expression's own failure: Expr turns it into ExpressionFailed


def _cannot_answer(context):
    raise NotImplementedError  # what ContextBase raises for what a stand-in cannot answer


def _engine_bug(context):
    raise RulecBug("an error of rulec's own")


UNANSWERED = [pytest.param(_divides_by_zero, id="expression failed"),
              pytest.param(_cannot_answer, id="stand-in cannot answer")]


def _expr(function) -> Expr:
    return Expr("made_up()", function)


def _with_final_award(game, function):
    """`game` with the amount of its first award paid at the game's end made `function`."""
    index = next(i for i, a in enumerate(game.awards) if a.trigger.kind == "game_end")
    awards = list(game.awards)
    awards[index] = replace(awards[index], amount=_expr(function))
    return replace(game, awards=awards)


# Each asker: (asked with an expression's function) -> what it gives back.
def _evaluation_number(function, metz):
    return evaluation._safe_number(_expr(function), StandInContext())


def _evaluation_condition(function, metz):
    return evaluation._safe_bool(_expr(function), StandInContext())


def _variable_goals(function, metz):
    answer = variable_goals._safe(_expr(function), StandInContext())
    return "failed" if answer is variable_goals._FAILED else answer


def _cost_chart(function, metz):
    return tables._stand_in_value(_expr(function), metz)


def _objective_weights(function, metz):
    held = next(a for a in metz.awards if a.trigger.kind == "holds")
    game = replace(metz, awards=[replace(held, amount=_expr(function))])
    return tables._mask_rank(game, tuple(held.trigger.hexes))


def _set_up_stacking(function, metz):
    game = replace(metz, stacking=replace(metz.stacking, counts=_expr(function)))
    return references._counts_for_stacking(game, next(u for u in metz.units.values() if u.setup))


def _vp_bound(function, metz):
    award = replace(metz.awards[0], amount=_expr(function), only=None)
    return vp_range._largest(metz, award, (None,))


def _final_awards(function, metz):
    game = _with_final_award(load_game(str(GAMES / "final_towns.rulec")), function)
    return FinalAwards(game, ()).constant


ASKERS = [_evaluation_number, _evaluation_condition, _variable_goals, _cost_chart, _objective_weights,
          _set_up_stacking, _vp_bound, _final_awards]


@pytest.mark.parametrize("ask", ASKERS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("function", UNANSWERED)
def test_an_expression_the_stand_in_cannot_answer_gets_the_askers_guess(ask, function, metz):
    fallback = ask(function, metz)
    assert fallback == ask(_divides_by_zero, metz)  # one guess, whichever way the expression could not answer
    assert fallback is not None


@pytest.mark.parametrize("ask", ASKERS, ids=lambda f: f.__name__.strip("_"))
def test_an_error_of_rulecs_own_is_not_taken_for_an_unanswered_expression(ask, metz):
    with pytest.raises(RulecBug):
        ask(_engine_bug, metz)


def test_the_guesses_are_the_documented_ones(metz):
    assert _evaluation_number(_cannot_answer, metz) == 1.0  # a number it cannot tell counts 1
    assert _evaluation_condition(_cannot_answer, metz) is True  # when in doubt, the objective counts
    assert _variable_goals(_cannot_answer, metz) == "failed"
    assert _cost_chart(_cannot_answer, metz) == 1  # 1 MP
    assert _set_up_stacking(_cannot_answer, metz) is True  # the unit counts
    assert _vp_bound(_cannot_answer, metz) == 0  # tells nothing


class _Fighter:
    def __init__(self, unit: str):
        self.unit = unit


class _RefusingOdds:
    """A state whose odds of a battle not yet declared raise `error` (stands in for GameState.odds)."""

    def __init__(self, error: Exception):
        self.error = error

    def odds(self, action):
        raise self.error


def test_greedy_weighs_every_group_when_a_modifier_cannot_tell_the_odds_before_the_declaration():
    from rulec.players.greedy import _fewest_for_each_odds
    from rulec.runtime.errors import ExpressionFailed

    groups = [(_Fighter("a"),), (_Fighter("a"), _Fighter("b"))]
    refusing = _RefusingOdds(ExpressionFailed("attackers_moved()", ZeroDivisionError()))
    assert _fewest_for_each_odds(refusing, "0101", groups) == groups
    with pytest.raises(RulecBug):
        _fewest_for_each_odds(_RefusingOdds(RulecBug("an error of rulec's own")), "0101", groups)


# An amount no number holds: a game file's numbers are bounded (limit-number), but an amount may multiply them past a
# float (a whole number a float cannot hold) or, with fractions, to an infinity (a float no whole number holds).
def _beyond_a_float(context):
    return 10**400


def _infinite(context):
    return float("inf")


@pytest.mark.parametrize("ask, function", [(_evaluation_number, _beyond_a_float), (_final_awards, _beyond_a_float),
                                           (_objective_weights, _infinite), (_vp_bound, _infinite)],
                         ids=["evaluation_number", "final_awards", "objective_weights", "vp_bound"])
def test_an_amount_no_number_holds_gets_the_askers_guess_outside_play(ask, function, metz):
    assert ask(function, metz) == ask(_cannot_answer, metz)


@pytest.mark.parametrize("amount", [10**15 + 1, -10**15 - 1, 10**400, float("inf"), float("nan")],
                         ids=["above", "below", "beyond a float", "infinite", "not a number"])
def test_in_play_an_award_beyond_the_most_vp_at_once_is_a_game_error(amount, metz):
    from rulec.engine import new_game
    from rulec.engine.victory import MOST_VP_AT_ONCE, award_amount
    from rulec.runtime.errors import ExpressionFailed

    state = new_game(metz, seed=1)
    award = replace(metz.awards[0], amount=_expr(lambda context: amount), only=None)
    with pytest.raises(ExpressionFailed, match="made_up"):  # named by the award's expression, as any failure
        award_amount(state, award, None)
    for most in (MOST_VP_AT_ONCE, -MOST_VP_AT_ONCE, 2.5):  # the bound itself, and a fraction made whole, still score
        assert award_amount(state, replace(award, amount=_expr(lambda context: most)), None) == int(most)
