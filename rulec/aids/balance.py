"""The balance sheet: N AI-against-AI games and what they say about the game's balance, as SVG plots.

    games = play_games(game, count=10, seed=1)        # one BalanceGame per seed, seed..seed+count-1
    svg = balance_svg(game, games)                     # win rate by side with 95% intervals, VP spread,
                                                       # game length, and which awards decide games

The games are played by the project's players (rulec.players: the same set-up,
dice and players for the same seed as `rulec simulate`); the VP log of each
game tells which awards scored. An award "decides" a game when taking its VP
away would change the winner or the level of victory. The plots are drawn by
matplotlib (the optional `balance` extra) with fixed ids and no date, so the
same games give the same bytes.
"""

from __future__ import annotations

import io
import math
import re
from collections import Counter
from dataclasses import dataclass

from rulec.diagnostics import Diagnostic, DiagnosticError
from rulec.runtime.model import Game

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class BalanceGame:
    seed: int
    winner: str | None
    level: str
    vp: dict[str, int]
    turns: int  # the last game turn played
    actions: int
    by_award: dict[str, int]  # VP each award (or option / variant counter source) gave, by source id


def play_games(game: Game, count: int, seed: int = 1, kinds: dict[str, str] | None = None) -> list[BalanceGame]:
    """`count` AI games (greedy players unless `kinds` says otherwise), seeds seed..seed+count-1."""
    from rulec.players.simulation import play_one

    chosen = {side: (kinds or {}).get(side, "greedy") for side in game.sides}
    games = []
    for game_seed in range(seed, seed + count):
        record = play_one(game, (), chosen, game_seed)
        games.append(BalanceGame(record.seed, record.winner, record.level, record.vp, record.turns, record.actions,
                                 record.vp_by_source))
    return games


def wilson(wins: int, total: int) -> tuple[float, float, float]:
    """The share and its 95% Wilson score interval (low, high): honest for small counts and 0 or 100%."""
    if total == 0:
        return 0.0, 0.0, 1.0
    share = wins / total
    denominator = 1 + Z95 ** 2 / total
    centre = (share + Z95 ** 2 / (2 * total)) / denominator
    spread = Z95 * math.sqrt(share * (1 - share) / total + Z95 ** 2 / (4 * total ** 2)) / denominator
    return share, max(0.0, centre - spread), min(1.0, centre + spread)


def deciding_awards(game: Game, games: list[BalanceGame]) -> Counter[str]:
    """For each VP source, in how many games taking its VP away changes the winner or the level."""
    from rulec.engine.victory import outcome

    sides = {award.id: award.side for award in game.awards}
    decided: Counter[str] = Counter()
    for played in games:
        for source, amount in played.by_award.items():
            side = sides.get(source)
            if side is None or not amount:
                continue
            without = dict(played.vp)
            without[side] = without.get(side, 0) - amount
            changed = outcome(game, without)
            if (changed.winner, changed.level) != (played.winner, played.level):
                decided[source] += 1
    return decided


@dataclass(frozen=True)
class BalanceSummary:
    games: int
    wins: dict[str, tuple[int, float, float, float]]  # side (or "draw") -> (count, share, low, high)
    most_vp: int
    decided: dict[str, int]


def summarise(game: Game, games: list[BalanceGame]) -> BalanceSummary:
    total = len(games)
    wins = {}
    for side in [*game.sides, None]:
        count = sum(1 for g in games if g.winner == side)
        wins["draw" if side is None else side] = (count, *wilson(count, total))
    most = max((v for g in games for v in g.vp.values()), default=0)
    return BalanceSummary(total, wins, most, dict(deciding_awards(game, games)))


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise DiagnosticError([Diagnostic(
            "balance-unavailable", "the balance sheet needs matplotlib",
            hint="pip install 'rulec[balance]'")]) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return matplotlib, plt


def plain(text: str) -> str:
    r"""A designer's text as matplotlib prints it literally: `$` would start mathematical notation."""
    return text.replace("\\", "\\\\").replace("$", r"\$")


def balance_svg(game: Game, games: list[BalanceGame]) -> str:
    """Four plots on one SVG: win rate by side (95% intervals), VP by side, game length, deciding awards.

    Texts are drawn as glyph outlines (svg.fonttype "path"): nothing a game file says becomes SVG markup."""
    matplotlib, plt = _pyplot()
    from matplotlib.ticker import MaxNLocator
    summary = summarise(game, games)
    names = {side.id: plain(side.name) for side in game.sides.values()}
    colours = {side.id: side.color or "#888888" for side in game.sides.values()}
    award_names = {award.id: award.id.replace("_", " ") for award in game.awards}
    style = {"svg.hashsalt": "rulec-balance", "svg.fonttype": "path", "font.size": 8,
             "font.family": "DejaVu Sans", "axes.spines.top": False, "axes.spines.right": False}
    with matplotlib.rc_context(style):
        figure, axes = plt.subplots(2, 2, figsize=(7.2, 6.4))
        figure.suptitle(f"{plain(game.info.title)}: balance over {summary.games} AI games", fontsize=10)

        # Win rate by side, with 95% Wilson intervals.
        ax = axes[0][0]
        keys = list(summary.wins)
        shares = [summary.wins[k][1] for k in keys]
        errors = [[max(0.0, s - summary.wins[k][2]) for s, k in zip(shares, keys)],  # 0, not -1e-17, at 0% or 100%
                  [max(0.0, summary.wins[k][3] - s) for s, k in zip(shares, keys)]]
        labels = [names.get(k, "Draw") for k in keys]
        ax.bar(labels, shares, color=[colours.get(k, "#cccccc") for k in keys], edgecolor="black", linewidth=0.6)
        ax.errorbar(labels, shares, yerr=errors, fmt="none", ecolor="black", capsize=4, linewidth=0.8)
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of games won")
        ax.set_title("Win rate by side (95% interval)")
        for x, k in enumerate(keys):
            ax.annotate(f"{summary.wins[k][0]}/{summary.games}", (x, 0.02), ha="center", fontsize=7)

        # VP distribution by side.
        ax = axes[0][1]
        sides = list(game.sides)
        data = [[g.vp.get(side, 0) for g in games] for side in sides]
        parts = ax.boxplot(data, patch_artist=True, widths=0.5)
        ax.set_xticks(range(1, len(sides) + 1), [names[s] for s in sides])
        for patch, side in zip(parts["boxes"], sides):
            patch.set_facecolor(colours[side])
        for index, values in enumerate(data, 1):
            ax.scatter([index] * len(values), values, s=8, color="black", zorder=3)
        ax.set_ylabel("VP at the end")
        ax.set_title("VP distribution")

        # Game length: decisions and dice rolls played, and the turn each game ended on.
        ax = axes[1][0]
        actions = [g.actions for g in games]
        ax.hist(actions, bins=min(10, max(len(set(actions)), 1)), color="#99aabb", edgecolor="black", linewidth=0.6)
        ax.set_xlabel("actions played (moves, attacks, dice)")
        ax.set_ylabel("games")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        last = Counter(g.turns for g in games)
        ended = ", ".join(f"turn {turn}: {n}" for turn, n in sorted(last.items()))
        ax.set_title(f"Game length (ended on {ended})", fontsize=8)

        # Which awards decide games.
        ax = axes[1][1]
        sources = [a.id for a in game.awards]
        counts = [summary.decided.get(s, 0) for s in sources]
        mean_vp = [sum(g.by_award.get(s, 0) for g in games) / max(len(games), 1) for s in sources]
        positions = range(len(sources))
        ax.barh(positions, counts, color=[colours.get(a.side, "#888") for a in game.awards], edgecolor="black",
                linewidth=0.6)
        ax.set_yticks(positions, [award_names[s] for s in sources], fontsize=6.5)
        ax.invert_yaxis()
        ax.set_xlim(0, max(summary.games, 1))
        ax.set_xlabel("games whose result it decides")
        ax.set_title("Which awards decide games")
        for y, (count, vp) in enumerate(zip(counts, mean_vp)):
            ax.annotate(f"{vp:.1f} VP/game", (count + 0.1, y), va="center", fontsize=6)

        figure.tight_layout()
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None, "Creator": None})
        plt.close(figure)
    # matplotlib repeats each text in a comment beside its outline; the comments go (a game's texts with them).
    return re.sub(r"<!--.*?-->\n?", "", out.getvalue(), flags=re.S)

