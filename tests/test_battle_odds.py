"""Battle odds: exact enumeration against brute force written here, Monte Carlo fallback, seeds.

The brute-force functions below do not use rulec.battle: they apply the
rulebook (modifiers, ratio bands, casualty points, the default reserve
policy) directly to every combination of dice.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulec.battle.decisions import DefaultDecider
from rulec.battle.forces import parse_force
from rulec.battle.odds import battle_odds, exact_odds, monte_carlo_odds
from rulec.battle.report import battle_json
from rulec.battle.resolve import BattleSetup, SeededDice, fight_battle
from rulec.pipeline import load_game


@functools.cache
def _engle():
    return load_game("engle_ww2_battle")


def setup(attacker: str, defender: str, skirmish: bool = False) -> BattleSetup:
    game = _engle()
    return BattleSetup(game.battle, (parse_force(game, attacker), parse_force(game, defender)), game.info.die, skirmish)


def casualty_points(a: int, b: int) -> tuple[int, int]:
    """The rulebook's outcome table for one combat: casualty points (to a, to b)."""
    a, b = max(a, 1), max(b, 1)
    if a == b:
        return 0, 0
    high, low = max(a, b), min(a, b)
    points = 1 if high < 2 * low else 2 if high < 3 * low else 3
    return (points, 0) if a < b else (0, points)


def winner(points: tuple[int, int], names: tuple[str, str]) -> str:
    if points[0] == points[1]:
        return "drawn"
    return f"{names[1] if points[0] > points[1] else names[0]} wins"


def brute_force(dice_count: int, battle) -> dict[str, Fraction]:
    tally: Counter[str] = Counter()
    for dice in itertools.product(range(1, 7), repeat=dice_count):
        tally[battle(*dice)] += 1
    return {key: Fraction(count, 6 ** dice_count) for key, count in tally.items()}


@pytest.mark.rule("engle:outcome")
def test_exact_odds_of_a_panther_against_infantry():
    names = ("Germany", "Soviet Union")
    expected = brute_force(2, lambda d1, d2: winner(casualty_points(d1 + 4, d2), names))  # +4 against 0
    odds = exact_odds(setup("Germany: panther/good", "Soviet: infantry"))
    assert odds.method == "exact" and odds.winner == expected


@pytest.mark.rule("engle:dice")
def test_exact_odds_of_two_against_one():
    names = ("Britain", "Soviet Union")
    # Two infantry (0 each) add their dice against an anti-tank gun (other v other: 0).
    expected = brute_force(3, lambda d1, d2, d3: winner(casualty_points(d1 + d2, d3), names))
    assert exact_odds(setup("Britain: infantry x2", "Soviet: at-gun")).winner == expected


@pytest.mark.rule("engle:reserves")
def test_exact_odds_with_a_reserve_fed_in_when_behind():
    names = ("Britain", "Soviet Union")

    def battle(d1, d2, d3, d4, mortar):
        # The mortar waits in reserve; it joins the first combat Britain is losing, at -1.
        first, second = d1, d3
        if first < d2:
            first += mortar - 1
        elif second < d4:
            second += mortar - 1
        one, two = casualty_points(first, d2), casualty_points(second, d4)
        return winner((one[0] + two[0], one[1] + two[1]), names)

    expected = brute_force(5, battle)
    assert exact_odds(setup("Britain: infantry x2, mortar", "Soviet: infantry x2")).winner == expected


def test_exact_odds_sum_to_one_and_name_army_states():
    odds = exact_odds(setup("Germany: panther/good, panzergrenadier/good, infantry", "Soviet: infantry x3, mortar, at-gun"))
    assert sum(odds.winner.values()) == 1
    for states in odds.states:
        assert sum(states.values()) == 1 and set(states) <= {"steady", "shaken", "broken", "shattered"}


@pytest.mark.rule("engle:skirmish")
def test_skirmish_odds_include_the_open_battle_it_may_grow_into():
    odds = exact_odds(setup("Britain: infantry x3", "Soviet: infantry x3", skirmish=True))
    assert 0 < odds.escalation < 1 and sum(odds.winner.values()) == 1


def test_monte_carlo_when_enumeration_is_too_large():
    battle = setup("Germany: panther/good", "Soviet: infantry, at-gun")
    exact = exact_odds(battle)
    estimate = battle_odds(battle, budget=5, samples=4000, seed=3)
    assert estimate.method == "monte carlo" and estimate.samples == 4000
    for key, p in exact.winner.items():
        error = estimate.standard_error.get(key, 0.0)
        assert abs(estimate.winner.get(key, 0.0) - float(p)) <= 4 * max(error, 0.005), key
    assert monte_carlo_odds(battle, 500, seed=9) == monte_carlo_odds(battle, 500, seed=9)


def test_the_same_seed_gives_the_same_battle():
    battle = setup("Germany: panther/good, panzergrenadier/good, infantry", "Soviet: infantry x3, mortar, at-gun")
    first = battle_json(fight_battle(battle, SeededDice(42), DefaultDecider()), 42)
    again = battle_json(fight_battle(battle, SeededDice(42), DefaultDecider()), 42)
    assert first == again
    others = [battle_json(fight_battle(battle, SeededDice(seed), DefaultDecider()), 42) for seed in range(5)]
    assert any(other["combats"] != first["combats"] for other in others)
