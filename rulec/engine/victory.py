"""Victory points and the winner: evaluating the game's awards, sudden death and victory levels.

Compiled expressions read the game through an EngineContext
(rulec.engine.context). The winner is the first victory level, in file
order, whose condition holds when the game ends; a sudden-death condition
that holds when it is checked ends the game at once with its winner.
"""

from __future__ import annotations

from typing import Any, Final, Mapping, Sequence

from rulec.engine.context import EngineContext
from rulec.engine.position import Position
from rulec.engine.records import Outcome, VpEntry
from rulec.engine.scores_context import ScoresContext
from rulec.runtime.context import ranked_scores
from rulec.runtime.errors import ExpressionFailed
from rulec.runtime.model import Award, Game, SuddenDeath, Unit, VictoryLevel


__all__ = ["VpEntry", "Outcome", "award_amount", "score", "outcome", "outcome_of", "sudden_death",
           "score_game_end"]


# The most VP one award gives or takes at once. A game file's numbers are bounded (limit-number), but an amount may
# multiply them past what a float holds: then no measure of victory, no AI and no result line could weigh the scores.
# Far beyond any game's, and exact as a float (2**53 is about 9.0e15).
MOST_VP_AT_ONCE: Final = 10**15


def award_amount(state: Position, award: Award, unit: Unit | None) -> int:
    """The award's VP now, for `unit` (0 if its condition fails). An amount beyond MOST_VP_AT_ONCE, or a fraction
    that is no number (an overflow's infinity), fails as the award's expression (ExpressionFailed: a game error)."""
    context = EngineContext(state, unit)
    if award.only is not None and not award.only(context):
        return 0
    value = award.amount(context)
    try:
        amount = int(value)
    except (OverflowError, ValueError) as error:  # infinite, or not a number
        raise ExpressionFailed(award.amount.source, error) from None
    if not -MOST_VP_AT_ONCE <= amount <= MOST_VP_AT_ONCE:
        raise ExpressionFailed(award.amount.source, OverflowError("more than 10^15 VP at once, the most an award gives"))
    return amount


def score(state: Position, side: str, amount: int, source: str, unit: str | None = None, hex: str | None = None,
          phase: str | None = None) -> None:
    """`side` scores `amount` VP (a negative amount takes them back), logged with its `source` (VpEntry)
    under the current phase, or `phase` ("setup" for VP given as the game is set up)."""
    state.vp[side] = state.vp.get(side, 0) + amount
    if phase is None:
        phase = state.phase.id if state.game.sequence else ""
    state.vp_log.append(VpEntry(state.turn, phase, side, amount, source, unit, hex))


# Scores: a game's VP, or the fractional VP an AI projects (players/victory_margin.py asks who wins with them). Any,
# not int: compiled (make fast), a value declared int is checked as one, and a fraction would raise.
Scores = Mapping[str, Any]


def _margin(game: Game, vp: Scores) -> float:
    ranked = ranked_scores(game.sides, vp)
    leader = vp.get(ranked[0], 0) if ranked else 0
    runner_up = vp.get(ranked[1], 0) if len(ranked) > 1 else 0
    if game.victory is not None and game.victory.measure == "ratio":
        return leader / runner_up if runner_up else (float("inf") if leader else 1.0)
    return leader - runner_up


def outcome(game: Game, vp: Scores, context: Any = None) -> Outcome:
    """The winner and the level of victory for final scores `vp` (and the final position, through `context`)."""
    context = context if context is not None else ScoresContext(game, vp)
    margin = _margin(game, vp)
    rules = game.victory
    if rules is None:
        leader = context.leader()
        return Outcome(leader or None, "Victory" if leader else "Draw", margin, dict(vp))
    for level in rules.levels:
        if _holds(level, context, rules.measure):
            winner = level.winner if level.winner is not None else (context.leader() or None)
            return Outcome(winner, level.name, margin, dict(vp))
    return Outcome(rules.otherwise, rules.draw, margin, dict(vp))


def _holds(level: VictoryLevel, context: Any, measure: str) -> bool:
    """Whether a level's condition holds; a level built with only `at_least` needs that lead (the checker's shorthand)."""
    if level.when is not None:
        return bool(level.when(context))
    if level.at_least is None:
        return False
    lead = context.lead_ratio() if measure == "ratio" else context.lead()
    return bool(context.lead() > 0 and lead >= level.at_least)


def outcome_of(state: Position) -> Outcome:
    """The result of the game in `state`: a sudden death that ended it, else the levels on the position."""
    decided: Outcome | None = getattr(state, "decided", None)
    if decided is not None:
        return Outcome(decided.winner, decided.level, decided.margin, dict(state.vp))
    return outcome(state.game, state.vp, EngineContext(state))


def sudden_death(state: Position, moments: Sequence[str]) -> Outcome | None:
    """The result if a sudden-death condition checked at one of `moments` holds now, else None."""
    rules = state.game.victory
    if rules is None or not rules.sudden_death:
        return None
    context = EngineContext(state)
    for rule in rules.sudden_death:
        if rule.check in moments and rule.when(context):
            return _sudden(state, rule)
    return None


def _sudden(state: Position, rule: SuddenDeath) -> Outcome:
    return Outcome(rule.winner, rule.name, _margin(state.game, state.vp), dict(state.vp))


def score_game_end(state: Position) -> list[tuple[Award, int]]:
    """The awards scored when the game ends, with their amounts now."""
    return [(award, award_amount(state, award, None)) for award in state.game.awards if award.trigger.kind == "game_end"]
