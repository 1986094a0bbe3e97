"""Many AI-against-AI games and their summary (what `rulec simulate` prints).

Game i is played with seed `seed + i` whatever the number of worker processes,
so a summary depends only on the game, options, players, seed and count.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rulec.players.match import play_match
from rulec.players.setup import build_players


@dataclass(frozen=True)
class GameRecord:
    """What one simulated game ended with."""

    seed: int
    winner: str | None
    level: str
    vp: dict[str, int]
    margin: float
    actions: int
    turns: int = 0  # the last game turn played
    vp_by_source: dict[str, int] = field(default_factory=dict)  # the VP each award, option or counter source gave


def play_one(game: Any, options: tuple[str, ...], kinds: dict[str, str], seed: int, scenario: str | None = None) -> GameRecord:
    """One whole AI game with `seed` for the set-up, the dice and the players (from `scenario`'s start, if given)."""
    from rulec.engine import new_game

    state = new_game(game, options=options, seed=seed, scenario=scenario)
    players = build_players(kinds, list(state.players), seed, default="random")
    result = play_match(state, players, seed=seed)
    outcome = state.outcome()
    by_source: Counter[str] = Counter()
    for entry in state.vp_log:
        by_source[entry.source] += entry.amount
    return GameRecord(seed, outcome.winner, outcome.level, dict(outcome.vp), outcome.margin, result.actions, state.turn,
                      dict(by_source))


@dataclass
class Summary:
    games: int = 0
    wins: dict[str, Counter] = field(default_factory=dict)  # side -> victory level -> count
    draws: int = 0
    vp: dict[str, dict[str, float]] = field(default_factory=dict)  # side -> min/mean/max
    margin_histogram: dict[str, int] = field(default_factory=dict)  # "first side's VP minus the second's" buckets
    mean_actions: float = 0.0
    mean_turns: float = 0.0  # game turns played: a game that ends early by sudden death is shorter

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "wins": {s: dict(c) for s, c in self.wins.items()},
                "wins_total": {s: sum(c.values()) for s, c in self.wins.items()}, "draws": self.draws,
                "vp": self.vp, "margin_histogram": self.margin_histogram, "mean_actions": self.mean_actions,
                "mean_turns": self.mean_turns}


def summarise(records: list[GameRecord], sides: list[str], bucket: int = 5) -> Summary:
    """Wins by side and level, draws, VP statistics, a histogram of the first side's margin."""
    summary = Summary(games=len(records), wins={s: Counter() for s in sides})
    for record in records:
        if record.winner is None:
            summary.draws += 1
        else:
            summary.wins[record.winner][record.level] += 1
    for side in sides:
        values = [r.vp.get(side, 0) for r in records] or [0]
        summary.vp[side] = {"min": min(values), "mean": round(statistics.fmean(values), 2), "max": max(values)}
    if len(sides) >= 2:
        margins = Counter((r.vp.get(sides[0], 0) - r.vp.get(sides[1], 0)) // bucket * bucket for r in records)
        summary.margin_histogram = {f"{low:+d}..{low + bucket - 1:+d}": margins[low] for low in sorted(margins)}
    summary.mean_actions = round(statistics.fmean([r.actions for r in records]), 1) if records else 0.0
    summary.mean_turns = round(statistics.fmean([r.turns for r in records]), 1) if records else 0.0
    return summary


def format_summary(summary: Summary, game: Any, kinds: dict[str, str]) -> str:
    sides = list(summary.wins)
    names = {s: game.sides[s].name for s in sides}
    lines = [f"{summary.games} games of {game.info.title}: " + ", ".join(f"{names[s]} {kinds.get(s, 'random')}" for s in sides)]
    for side in sides:
        total = sum(summary.wins[side].values())
        levels = ", ".join(f"{level} {count}" for level, count in sorted(summary.wins[side].items(), key=lambda i: -i[1]))
        share = f"{100 * total / summary.games:.0f}%" if summary.games else "-"
        lines.append(f"  {names[side]} wins {total} ({share})" + (f": {levels}" if levels else ""))
    lines.append(f"  draws {summary.draws}")
    for side in sides:
        v = summary.vp[side]
        lines.append(f"  VP {names[side]}: min {v['min']}, mean {v['mean']}, max {v['max']}")
    if summary.margin_histogram:
        lines.append(f"  margin ({names[sides[0]]} minus {names[sides[1]]}):")
        peak = max(summary.margin_histogram.values()) or 1
        for label, count in summary.margin_histogram.items():
            lines.append(f"    {label:>9} {'#' * max(1, round(30 * count / peak)) if count else '':<30} {count}")
    lines.append(f"  mean game length: {summary.mean_turns} turns ({summary.mean_actions} actions)")
    return "\n".join(lines)
