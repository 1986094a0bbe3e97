"""`rulec simulate`: N AI-against-AI games in parallel processes, and their summary.

    rulec simulate GAME -n N [--player SIDE=random|greedy|mcts ...] [--seed S] [--jobs J]
                    [--option O ...] [--scenario S] [--json] [--backend local|ray [--address ADDRESS]]

Game i uses seed S+i, so the result does not depend on J. Sides without a
`--player` are played by the greedy player. Any game is played again, move for move,
by the `rulec play` command the summary prints, with that game's seed (`--json` lists them). A progress bar goes to stderr when
it is a terminal. Ctrl-C stops and summarises the games played so far.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
from typing import Any

from rulec.cli.arguments import bounded_int
from rulec.cli.play_command import load_playable_game, start_state
from rulec.players.backends import BACKENDS, record_to_json, simulate_on_ray
from rulec.players.setup import AI_KINDS, check_options, parse_player_specs
from rulec.players.simulation import GameRecord, format_summary, play_in_processes, play_one, summarise


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("simulate", help="play many AI games and summarise them",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game name in games/ or a game file")
    parser.add_argument("-n", "--games", type=bounded_int("-n", 1, MAX_GAMES), default=100, metavar="N",
                        help="how many games (default 100)")
    parser.add_argument("--player", action="append", default=[], metavar="SIDE=KIND",
                        help=f"who plays a side: {', '.join(AI_KINDS)} (default greedy)")
    parser.add_argument("--seed", type=bounded_int("--seed", 0), default=0, help="the first game's seed (default 0)")
    parser.add_argument("--jobs", "-j", type=bounded_int("--jobs", 0, 10**6), default=None,
                        help="worker processes (default and at most: the number of cores)")
    parser.add_argument("--option", action="append", default=[], metavar="O", help="an option or scenario")
    parser.add_argument("--scenario", default=None, metavar="S", help="a scenario block of the game")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON, with a 'games' list of every game")
    parser.add_argument("--backend", choices=BACKENDS, default="local",
                        help="local: worker processes here (default); ray: Ray tasks (pip install -e '.[ray]')")
    parser.add_argument("--address", default=None, metavar="ADDRESS",
                        help="with --backend ray: the Ray cluster to join (default: start a local Ray instance)")
    parser.set_defaults(func=run)


MAX_GAMES = 10_000_000  # a larger count is a typo: a run that would never end

def simulate(game_name: str, game: Any, options: tuple[str, ...], kinds: dict[str, str], seeds: range,
             jobs: int, progress=None, records: list[GameRecord] | None = None, scenario: str | None = None) -> list[GameRecord]:
    """Play every seed; records in seed order whatever the number of jobs. `records` (if given) is
    filled as games finish, so that an interrupted run keeps the games it has played."""
    records = [] if records is None else records
    if jobs <= 1:
        for seed in seeds:
            records.append(play_one(game, options, kinds, seed, scenario=scenario))
            if progress:
                progress(len(records))
        return records
    # Small chunks: the progress bar moves and Ctrl-C loses little; a game costs far more than a hand-over.
    chunk = max(1, min(4, len(seeds) // (jobs * 8)))
    # Worker processes of this run alone, stopped by signal when it ends or is interrupted (rulec.players.simulation).
    with contextlib.closing(play_in_processes(game_name, options, kinds, seeds, jobs, scenario, chunk)) as played:
        for record in played:
            records.append(record)
            if progress:
                progress(len(records))
    return records


def _progress_bar(total: int):
    if not sys.stderr.isatty():
        return None

    def show(done: int) -> None:
        width = 30
        filled = width * done // max(1, total)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def run(args: argparse.Namespace) -> int:
    if args.address and args.backend != "ray":
        print("rulec: error: --address is for --backend ray", file=sys.stderr)
        return 2
    game = load_playable_game(args.game)
    sides = list(game.sides)
    options = check_options(game, args.option)
    if args.scenario and args.backend == "ray":
        print("rulec: error: --scenario is not supported with --backend ray yet", file=sys.stderr)
        return 2
    start_state(game, options, 0, args.scenario)  # an unknown scenario or options that exclude each other: a diagnostic
    kinds = parse_player_specs(args.player, sides, kinds=AI_KINDS)
    kinds = {side: kinds.get(side, "greedy") for side in sides}
    cores = os.cpu_count() or 1
    # More processes than cores only cost memory: 0 or a huge --jobs means all the cores.
    jobs = min(args.jobs or cores, cores, args.games)
    seeds = range(args.seed, args.seed + args.games)
    records: list[GameRecord] = []
    try:
        if args.backend == "ray":
            simulate_on_ray(args.game, options, kinds, seeds, args.address, jobs, _progress_bar(args.games), records)
        else:
            simulate(args.game, game, options, kinds, seeds, jobs, _progress_bar(args.games), records, args.scenario)
    except KeyboardInterrupt:
        print(f"\ninterrupted after {len(records)} of {args.games} games", file=sys.stderr)
        if not records:
            return 130
        _print_summary(args, game, options, kinds, records, sides)
        return 130
    _print_summary(args, game, options, kinds, records, sides)
    return 0


def _print_summary(args: argparse.Namespace, game: Any, options: tuple[str, ...], kinds: dict[str, str],
                   records: list[GameRecord], sides: list[str]) -> None:
    summary = summarise(records, sides)
    replay = replay_command(args.game, options, kinds)
    if args.json:
        print(json.dumps({"game": game.info.id, "options": list(options), "players": kinds, "seed": args.seed,
                          # 'games' is the list of every game (it replaces the summary's count, now 'played')
                          **summary.to_json(), "played": summary.games, "replay": replay,
                          "games": [record_to_json(record) for record in records]}, indent=2))
    else:
        print(format_summary(summary, game, kinds))
        if not records:  # stopped before any game ended
            return
        print(f"  play any game again: {replay.replace('{seed}', 'SEED')} (seeds {records[0].seed}"
              f"{'-' + str(records[-1].seed) if len(records) > 1 else ''})")


def replay_command(game_name: str, options: tuple[str, ...], kinds: dict[str, str]) -> str:
    """The `rulec play` line that plays a simulated game again (its seed goes in `{seed}`): the
    same seed gives the same set-up, dice and AI choices, so the same game, step for step."""
    words = ["rulec", "play", shlex.quote(game_name), *(f"--option {shlex.quote(o)}" for o in options),
             *(f"--player {side}={kind}" for side, kind in kinds.items()), "--seed {seed}"]
    return " ".join(words)
