"""`rulec battle`: resolve one battle of a battle system (a game with a `battle` section).

    rulec battle GAME --side "Red: tank/good, infantry x2" --side "Blue: infantry x3, mortar, at-gun" \\
        [--attacker SIDE] [--skirmish] [--ambush SIDE] [--modifier SIDE=+1] [--seed N] \\
        [--interactive] [--json] [--odds]

Prints the matching, each roll with its modifiers, each outcome with its
casualty points, the winner and both armies' states; `--odds` prints the
probability of each result instead. Mistakes in the command exit 2 with a
one-line message; a game file with errors exits 1 with its diagnostics.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from rulec.battle.decisions import DefaultDecider, PromptDecider
from rulec.battle.forces import Force, ForceError, parse_force, resolve_side, side_modifier
from rulec.battle.odds import DEFAULT_SAMPLES, battle_odds
from rulec.battle.deployment import deploy
from rulec.battle.report import battle_json, battle_text, deployment_lines, odds_json, odds_text
from rulec.battle.resolve import BattleSetup, SeededDice, fight_battle
from rulec.diagnostics import did_you_mean
from rulec.pipeline import load_game
from rulec.runtime.model import Game

USAGE_ERROR = 2


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "battle", help="resolve a battle of a battle system",
        description="Resolve one battle (or skirmish) between two forces of a battle-system game.")
    parser.add_argument("game", help="a game name in games/ or a path to a .rulec file")
    parser.add_argument("--side", action="append", default=[], metavar='"SIDE: UNIT, ..."',
                        help="a force: unit kinds with optional /quality, /reserve and xN (give exactly two)")
    parser.add_argument("--attacker", metavar="SIDE", help="the side that attacks and orders the combats (default: the first --side)")
    parser.add_argument("--skirmish", action="store_true", help="fight a skirmish: one unit a side and a small reserve")
    parser.add_argument("--ambush", metavar="SIDE", help="this side ambushes (its ambush modifier applies)")
    parser.add_argument("--modifier", action="append", default=[], metavar="SIDE=VALUE",
                        help="a matrix argument (+1/-1) or a named modifier (exhaustion) for a side; repeatable")
    parser.add_argument("--seed", type=int, default=1, help="seed for the dice (default 1)")
    parser.add_argument("--interactive", action="store_true", help="ask after each combat whether to commit reserves")
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")
    parser.add_argument("--odds", action="store_true", help="print the probability of each result instead of fighting")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help=f"Monte Carlo battles when the odds are too large to enumerate (default {DEFAULT_SAMPLES})")
    parser.set_defaults(func=run)


class _Usage(Exception):
    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except BrokenPipeError:  # `rulec battle ... --json | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error when Python flushes at exit
        return 0
    except (_Usage, ForceError) as error:
        print(f"rulec battle: error: {error.message}", file=sys.stderr)
        if error.hint:
            print(f"    hint: {error.hint}", file=sys.stderr)
        return USAGE_ERROR


def _run(args: argparse.Namespace) -> int:
    if len(args.side) != 2:
        raise _Usage(f"give exactly two --side options, found {len(args.side)}",
                     'for example --side "Red: infantry x2" --side "Blue: tank"')
    if args.odds and args.interactive:
        raise _Usage("--odds enumerates the default decisions; it cannot be --interactive")
    if args.samples < 1:
        raise _Usage("--samples must be at least 1")
    game = load_game(args.game)  # a game with errors: DiagnosticError, exit 1
    if game.battle is None:
        raise _Usage(f"game '{game.info.id}' has no battle system", "rulec battle needs a game file with a 'battle { ... }' section")
    forces = [parse_force(game, text) for text in args.side]
    if forces[0].side == forces[1].side:
        raise _Usage(f"both forces are {forces[0].name}", "give two different sides")
    if args.attacker is not None and _which(game, forces, args.attacker) == 1:
        forces.reverse()
    for item in args.modifier:
        side_text, equals, value = item.partition("=")
        if not equals or not value.strip():
            raise _Usage(f"--modifier is written SIDE=VALUE, found '{item}'", "for example --modifier Red=+1")
        index = _which(game, forces, side_text)
        forces[index] = forces[index].with_modifier(side_modifier(game, forces[index], value))
    if args.ambush is not None:
        if game.battle.ambush is None:
            raise _Usage(f"game '{game.info.id}' has no ambush modifier")
        index = _which(game, forces, args.ambush)
        forces[index] = forces[index].with_modifier(game.battle.modifiers[game.battle.ambush])
    setup = BattleSetup(game.battle, (forces[0], forces[1]), die=game.info.die, skirmish=args.skirmish)

    if args.odds:
        odds = battle_odds(setup, samples=args.samples, seed=args.seed)
        print(json.dumps(odds_json(odds, setup.forces), indent=2) if args.json else odds_text(odds, setup.forces, args.skirmish))
        return 0
    decider = DefaultDecider()
    if args.interactive:
        prompts = sys.stderr if args.json else sys.stdout
        decider = PromptDecider(lambda prompt: _ask(prompt, prompts), prompts)
        # Show the matching before the first question, so the player knows what each combat is.
        print("Deployment:", file=prompts)
        print("\n".join(deployment_lines(setup.forces, deploy(setup.system, setup.forces, setup.skirmish), setup.skirmish)),
              file=prompts)
    result = fight_battle(setup, SeededDice(args.seed, game.info.die), decider)
    print(json.dumps(battle_json(result, args.seed), indent=2) if args.json else battle_text(result, args.seed))
    return 0


def _ask(prompt: str, out) -> str | None:
    print(prompt, end="", file=out, flush=True)
    line = sys.stdin.readline()
    return None if line == "" else line


def _which(game: Game, forces: list[Force], written: str) -> int:
    """Which of the two forces a player means by a side's id, name or adjective."""
    names = [force.name for force in forces]
    try:
        side, _ = resolve_side(game, written)
    except ForceError:
        side = None
    for index, force in enumerate(forces):
        if force.side == side:
            return index
    raise _Usage(f"'{written}' is neither of the battle's sides ({' nor '.join(names)})", did_you_mean(written, names))
