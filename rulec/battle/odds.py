"""Odds: the probability of each battle result under the default decisions.

Exact when it is small enough: combat by combat, every die of the combat is
enumerated (including reserve dice, whose number depends on earlier dice) from
every battle state reachable so far, and equal states are merged, so the work
grows with the number of distinct states rather than with every die of the
battle at once. When that work passes `budget` combat resolutions, a seeded
Monte Carlo estimate with standard errors is given instead, and says so.

A result is the battle's winner ("<side> wins" or "drawn") and, per side, its
army state; for a skirmish that grows into an open battle, the open battle's.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from random import Random

from rulec.battle.decisions import DefaultDecider
from rulec.battle.resolve import BattleSetup, BattleState, PreparedBattle, escalates, fight_combat, fight_prepared, judge, start

DEFAULT_BUDGET = 100_000  # combat resolutions before falling back to Monte Carlo
DEFAULT_SAMPLES = 10_000


@dataclass(frozen=True)
class Odds:
    method: str  # "exact" or "monte carlo"
    winner: dict[str, float | Fraction]  # "<side> wins" / "drawn" -> probability
    states: tuple[dict[str, float | Fraction], dict[str, float | Fraction]]  # per side: army state id -> probability
    samples: int = 0
    standard_error: dict[str, float] = field(default_factory=dict)  # for the winner entries (Monte Carlo only)
    escalation: float | Fraction | None = None  # a skirmish: probability it grows into an open battle


class _TooLarge(Exception):
    pass


class _ScriptedDice:
    """Dice that replay a fixed prefix, then ask for one more by raising _NeedDie."""

    def __init__(self, faces: tuple[int, ...]):
        self.faces, self.next = faces, 0

    def roll(self) -> int:
        if self.next == len(self.faces):
            raise _NeedDie
        self.next += 1
        return self.faces[self.next - 1]


class _NeedDie(Exception):
    pass


def battle_odds(setup: BattleSetup, budget: int = DEFAULT_BUDGET, samples: int = DEFAULT_SAMPLES, seed: int = 1) -> Odds:
    """Exact odds if they take at most `budget` combat resolutions, else a Monte Carlo estimate."""
    try:
        return exact_odds(setup, budget)
    except _TooLarge:
        return monte_carlo_odds(setup, samples, seed)


def exact_odds(setup: BattleSetup, budget: int = DEFAULT_BUDGET) -> Odds:
    """Exact probabilities as fractions; raises _TooLarge past the budget."""
    counter = [budget]
    outcomes, escalation = _exact_outcomes(PreparedBattle(setup), counter)
    winner: dict = defaultdict(Fraction)
    states: tuple[dict, dict] = (defaultdict(Fraction), defaultdict(Fraction))
    for (won, state_a, state_b), p in outcomes.items():
        winner[won] += p
        states[0][state_a] += p
        states[1][state_b] += p
    return Odds("exact", _ordered(winner), (_ordered(states[0]), _ordered(states[1])),
                escalation=escalation if setup.skirmish else None)


def _exact_outcomes(battle: PreparedBattle, counter: list[int]) -> tuple[dict[tuple[str, str, str], Fraction], Fraction]:
    setup, deployment = battle.setup, battle.deployment
    decider = DefaultDecider()
    distribution: dict[BattleState, Fraction] = {start(deployment): Fraction(1)}
    for plan in battle.plans:
        following: dict[BattleState, Fraction] = defaultdict(Fraction)
        for state, p in distribution.items():
            pending: list[tuple[int, ...]] = [()]
            while pending:
                faces = pending.pop()
                counter[0] -= 1
                if counter[0] < 0:
                    raise _TooLarge
                try:
                    after, _ = fight_combat(setup, plan, state, _ScriptedDice(faces), decider)
                except _NeedDie:
                    pending.extend(faces + (face,) for face in range(setup.die, 0, -1))
                    continue
                following[after] += p / setup.die ** len(faces)
        distribution = following
    outcomes: dict[tuple[str, str, str], Fraction] = defaultdict(Fraction)
    escalation = Fraction(0)
    open_outcomes = None
    for state, p in distribution.items():
        if escalates(setup, deployment, state):
            escalation += p
            if open_outcomes is None:
                open_outcomes, _ = _exact_outcomes(battle.open_battle, counter)
            for key, q in open_outcomes.items():
                outcomes[key] += p * q
            continue
        outcomes[_result_key(setup, *judge(setup, deployment, state))] += p
    return outcomes, escalation


def monte_carlo_odds(setup: BattleSetup, samples: int = DEFAULT_SAMPLES, seed: int = 1) -> Odds:
    """Estimated probabilities from `samples` seeded battles, with standard errors."""
    random = Random(seed)
    decider = DefaultDecider()
    winner: Counter[str] = Counter()
    states: tuple[Counter[str], Counter[str]] = (Counter(), Counter())
    escalated = 0

    class _Dice:
        def roll(self) -> int:
            return random.randint(1, setup.die)

    dice = _Dice()
    battle = PreparedBattle(setup)
    for _ in range(samples):
        result = fight_prepared(battle, dice, decider)
        escalated += result.escalated is not None
        final = result.final
        won, state_a, state_b = _result_key(setup, final.sides, final.loser)
        winner[won] += 1
        states[0][state_a] += 1
        states[1][state_b] += 1
    share = {key: count / samples for key, count in winner.items()}
    errors = {key: math.sqrt(p * (1 - p) / samples) for key, p in share.items()}
    return Odds("monte carlo", _ordered(share), (_ordered({k: v / samples for k, v in states[0].items()}),
                                                  _ordered({k: v / samples for k, v in states[1].items()})),
                samples=samples, standard_error=errors, escalation=escalated / samples if setup.skirmish else None)


def _result_key(setup: BattleSetup, sides, loser: int | None) -> tuple[str, str, str]:
    won = "drawn" if loser is None else f"{setup.forces[1 - loser].name} wins"
    return won, sides[0].state.id, sides[1].state.id


def _ordered(values: dict) -> dict:
    """Most likely first, then by name: a stable order to print."""
    return dict(sorted(values.items(), key=lambda item: (-item[1], item[0])))
