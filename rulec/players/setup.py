"""Setting up a game to play from command-line words: sides' players, options, seeds.

Shared by `rulec play`, `rulec simulate` and `rulec replay`. Every mistake
becomes a Diagnostic with a "did you mean" hint, never a traceback.
"""

from __future__ import annotations

from typing import Any, Iterable

from rulec.diagnostics import Diagnostic, DiagnosticError, did_you_mean
from rulec.players import AI_KINDS, PLAYER_KINDS, make_player
from rulec.runtime.model import Game


def parse_player_specs(specs: Iterable[str], sides: list[str], kinds: tuple[str, ...] = PLAYER_KINDS) -> dict[str, str]:
    """`["us=greedy", ...]` -> {side: kind}; every bad spec reported at once."""
    chosen: dict[str, str] = {}
    problems = []
    for spec in specs:
        side, equals, kind = spec.partition("=")
        side, kind = side.strip(), kind.strip().lower()
        if not equals or not side or not kind:
            problems.append(Diagnostic("bad-player", f"'{spec}' is not SIDE=PLAYER",
                                       hint=f"e.g. --player {sides[0]}={kinds[-1]}" if sides else None))
            continue
        by_lower = {s.lower(): s for s in sides}
        side = by_lower.get(side.lower(), side)  # side ids are matched without regard to case
        if side in chosen:
            problems.append(Diagnostic("repeated-player", f"--player names side '{side}' twice"))
        if side not in sides:
            problems.append(Diagnostic("unknown-side", f"the game has no side '{side}'",
                                       hint=did_you_mean(side, sides) or f"sides are: {', '.join(sides)}"))
        if kind not in kinds:
            problems.append(Diagnostic("unknown-player", f"'{kind}' is not a kind of player",
                                       hint=did_you_mean(kind, kinds) or f"players are: {', '.join(kinds)}"))
        chosen[side] = kind
    if problems:
        raise DiagnosticError(problems)
    return chosen


def check_options(game: Game, options: Iterable[str]) -> tuple[str, ...]:
    """The options (scenarios included) checked against the game's; unknown ones reported with hints."""
    known = list(game.options)
    problems = []
    for option in options:
        if option not in known:
            problems.append(Diagnostic("unknown-option", f"the game has no option or scenario '{option}'",
                                       hint=did_you_mean(option, known) or (f"options are: {', '.join(known)}" if known else
                                                                            "the game has no options")))
    if problems:
        raise DiagnosticError(problems)
    return tuple(dict.fromkeys(options))


def player_seed(seed: int, seat: int) -> int:
    """Each seat's own seed, derived from the game's so that one seed fixes the whole game."""
    return seed * 1009 + seat + 1


def build_players(kinds: dict[str, str], sides: list[str], seed: int, default: str = "human",
                  **human_options: Any) -> list:
    """One player per side, in the engine's seat order."""
    players = []
    for seat, side in enumerate(sides):
        kind = kinds.get(side, default)
        players.append(make_player(kind, player_seed(seed, seat), **(human_options if kind == "human" else {})))
    return players


__all__ = ["AI_KINDS", "PLAYER_KINDS", "parse_player_specs", "check_options", "player_seed", "build_players"]
