"""`rulec info GAME`: what a game offers before playing it — sides, options and scenarios,
unit kinds, the turns and the sequence of play, or a battle system's unit kinds and qualities.

    rulec info GAME
"""

from __future__ import annotations

import argparse
from typing import Any

from rulec.pipeline import load_game


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("info", help="a game's sides, options, scenarios and unit kinds",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game name in games/ or a game file")
    parser.set_defaults(func=run)


def info_lines(game: Any, name: str) -> list[str]:
    info = game.info
    lines = [f"{info.title}{', ' + info.edition if info.edition else ''}" + (f" ({info.scale})" if info.scale else "")]
    if info.reconstruction_notice:
        lines.append(info.reconstruction_notice)
    lines.append("sides: " + ", ".join(f"{side.id} ({side.name})" for side in game.sides.values()))
    if game.map is not None:
        first, last = game.map.hexes[0], game.map.hexes[-1]
        lines.append(f"map: {len(game.map.hexes)} hexes, {first} to {last}; {info.turns} turns "
                     f"({info.turn_label(1)} to {info.turn_label(info.turns)}), a d{info.die}")
        lines.append("sequence of play: " + "; ".join(phase.name for phase in game.sequence))
        lines.append("units: " + ", ".join(
            f"{side.name} {sum(1 for u in game.units.values() if u.side == sid and not u.optional)}"
            for sid, side in game.sides.items()))
        used = {u.type for u in game.units.values()}
        lines.append("unit kinds: " + ", ".join(f"{t.id} ({t.name})" for t in game.unit_types.values() if t.id in used))
    if game.battle is not None:
        lines.append("battle system, no map; unit kinds: " + ", ".join(
            f"{k.id} ({k.name})" for k in game.battle.kinds.values()))
        lines.append("qualities: " + ", ".join(f"{q} ({m:+d})" for q, m in game.battle.qualities.items()))
    if game.options:
        lines.append("options and scenarios (--option ID):")
        lines += [f"  {option.id}: {option.name}" + (f" (not with {', '.join(option.excludes)})" if option.excludes else "")
                  for option in game.options.values()]
    if game.scenarios:
        lines.append("scenario blocks (--scenario ID):")
        lines += [f"  {s.id}: {s.name}, from turn {s.start_turn}" + (f" ({s.start_phase})" if s.start_phase else "")
                  + (f" to turn {s.turns}" if s.turns else "")
                  + (f"; options: {', '.join(s.options) or 'none'}" if s.options is not None else "")
                  for s in game.scenarios.values()]
    if not game.options and not game.scenarios:
        lines.append("no options or scenarios")
    if game.map is not None:
        lines.append(f"play it: rulec play {name}   or on a board in the browser: rulec serve {name}")
    elif game.battle is not None:
        lines.append(f'fight a battle: rulec battle {name} --side "SIDE: UNIT, ..." --side "SIDE: UNIT, ..."')
    else:  # a game being written (the tutorial's second step): neither command would take it yet
        lines.append("nothing to play yet: a map and a sequence of play make a game to play, a 'battle' section "
                     "a battle system (docs/tutorial.md)")
    return lines


def run(args: argparse.Namespace) -> int:
    print("\n".join(info_lines(load_game(args.game), args.game)))
    return 0
