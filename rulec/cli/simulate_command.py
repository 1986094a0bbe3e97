"""`rulec simulate`: N AI-against-AI games in parallel processes, and their summary.

    rulec simulate GAME -n N [--player SIDE=random|greedy|mcts ...] [--seed S] [--jobs J]
                    [--option O ...] [--json]

Game i uses seed S+i, so the result does not depend on J. Sides without a
`--player` are played by the random player. A progress bar goes to stderr when
it is a terminal. Ctrl-C stops and summarises the games played so far.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sys
from typing import Any

from rulec.cli.arguments import bounded_int
from rulec.cli.play_command import load_playable_game
from rulec.pipeline import load_game
from rulec.players.setup import AI_KINDS, check_options, parse_player_specs
from rulec.players.simulation import GameRecord, format_summary, play_one, summarise


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("simulate", help="play many AI games and summarise them",
                                   description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a game name in games/ or a game file")
    parser.add_argument("-n", "--games", type=bounded_int("-n", 1, MAX_GAMES), default=100, metavar="N",
                        help="how many games (default 100)")
    parser.add_argument("--player", action="append", default=[], metavar="SIDE=KIND",
                        help=f"who plays a side: {', '.join(AI_KINDS)} (default random)")
    parser.add_argument("--seed", type=bounded_int("--seed", 0), default=0, help="the first game's seed (default 0)")
    parser.add_argument("--jobs", "-j", type=bounded_int("--jobs", 0, 10**6), default=None,
                        help="worker processes (default and at most: the number of cores)")
    parser.add_argument("--option", action="append", default=[], metavar="O", help="an option or scenario")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(func=run)


MAX_GAMES = 10_000_000  # a larger count is a typo: a run that would never end

# Each worker process loads the game once.
_WORKER: dict[str, Any] = {}


def _init_worker(game_name: str, options: tuple[str, ...], kinds: dict[str, str]) -> None:
    # Ctrl-C is for the main process, which stops the workers itself (no traceback from each worker).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The pool stops its workers with SIGTERM: the default (end at once), not the parent's handler
    # (rulec.cli.main.stop_on_signals), which would print a traceback from each worker.
    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    _WORKER.update(game=load_game(game_name), options=options, kinds=kinds)


def _play_seed(seed: int) -> GameRecord:
    return play_one(_WORKER["game"], _WORKER["options"], _WORKER["kinds"], seed)


def simulate(game_name: str, game: Any, options: tuple[str, ...], kinds: dict[str, str], seeds: range,
             jobs: int, progress=None, records: list[GameRecord] | None = None) -> list[GameRecord]:
    """Play every seed; records in seed order whatever the number of jobs. `records` (if given) is
    filled as games finish, so that an interrupted run keeps the games it has played."""
    records = [] if records is None else records
    if jobs <= 1:
        for seed in seeds:
            records.append(play_one(game, options, kinds, seed))
            if progress:
                progress(len(records))
        return records
    # Small chunks: the progress bar moves and Ctrl-C loses little; a game costs far more than a hand-over.
    chunk = max(1, min(4, len(seeds) // (jobs * 8)))
    # Leaving the `with` (also by Ctrl-C) terminates the workers at once.
    with multiprocessing.Pool(jobs, initializer=_init_worker, initargs=(game_name, options, kinds)) as pool:
        for record in pool.imap(_play_seed, seeds, chunksize=chunk):
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
    game = load_playable_game(args.game)
    sides = list(game.sides)
    options = check_options(game, args.option)
    kinds = parse_player_specs(args.player, sides, kinds=AI_KINDS)
    kinds = {side: kinds.get(side, "random") for side in sides}
    cores = os.cpu_count() or 1
    # More processes than cores only cost memory: 0 or a huge --jobs means all the cores.
    jobs = min(args.jobs or cores, cores, args.games)
    seeds = range(args.seed, args.seed + args.games)
    records: list[GameRecord] = []
    try:
        simulate(args.game, game, options, kinds, seeds, jobs, _progress_bar(args.games), records)
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
    if args.json:
        print(json.dumps({"game": game.info.id, "options": list(options), "players": kinds, "seed": args.seed,
                          **summary.to_json()}, indent=2))
    else:
        print(format_summary(summary, game, kinds))
