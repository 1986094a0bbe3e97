"""How long the greedy player takes to decide: CPU milliseconds per greedy decision, and what a whole
greedy game costs in random games.

    .venv/bin/python benchmarks/greedy.py [-n 3] [--game drive_on_metz]
    .venv/bin/python benchmarks/greedy.py --against 20317e9     # and a reference commit, side by side
    .venv/bin/python benchmarks/greedy.py --game the_marne --decisions 100 --wins 20 --jobs 2
    .venv/bin/python benchmarks/greedy.py --game the_marne --decisions 50 --wins 20 --scenario pursuit

Measured on a made-up game of 140 hexes and 40 units (benchmarks/made_up_game.py,
compiled through the normal pipeline) and on a game of games/ (`--game`). Each
game is greedy against random, greedy on each side in turn; a decision with one
legal action is not counted (the player does not think about it). The aim is
under 10 ms per decision on the 140-hex, 40-unit game.

On a big game, `--decisions N` times only the first N greedy decisions of each
game (the game's whole cost is then not measured), and `--wins N` plays N whole
greedy-against-random games from each side (`rulec simulate`, `--jobs` processes,
`--scenario`) and prints greedy's win rate on each side and the CPU seconds a game costs.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time

import reference

reference.tree_on_path()

from made_up_game import compile_text, game_text  # noqa: E402

from rulec.engine import new_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402
from rulec.players import GreedyPlayer  # noqa: E402
from rulec.players.base import sample_chance  # noqa: E402
from rulec.players.match import chance_rng, play_match  # noqa: E402

AIM_MS = 10.0


class RandomPlayer:
    """Greedy's opponent: a uniform choice among the legal actions, written here so that every tree measured
    (--against) plays the same one (rulec's own random player leaves out steps that lead back, since eac5fb7)."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, state):
        return self.rng.choice(state.legal_actions())


def greedy_decisions(game, games: int, most: int = 0) -> tuple[float, float, int, float]:
    """(CPU ms per greedy decision, the longest in ms, decisions, CPU seconds per whole greedy-against-random
    game); with `most`, each game stops after that many greedy decisions."""
    thinking, longest, decisions, whole = 0.0, 0.0, 0, 0.0
    for seed in range(games):
        for greedy_seat in range(len(game.sides)):
            state = new_game(game, seed=seed)
            players = [GreedyPlayer(seed * 2 + i) if i == greedy_seat else RandomPlayer(seed * 2 + i)
                       for i in range(len(state.players))]
            rng = chance_rng(seed)
            started_game = time.process_time()
            made = 0
            while not state.is_terminal() and not (most and made >= most):
                seat = state.current_player()
                if state.is_chance_node():
                    action = sample_chance(state, rng)
                elif seat == greedy_seat and len(state.legal_actions()) > 1:
                    started = time.process_time()
                    action = players[seat].choose(state)
                    took = time.process_time() - started
                    thinking, longest = thinking + took, max(longest, took)
                    decisions, made = decisions + 1, made + 1
                else:
                    action = players[seat].choose(state)
                state.apply_action(action)
            whole += time.process_time() - started_game
    return 1000 * thinking / max(1, decisions), 1000 * longest, decisions, whole / (games * len(game.sides))


def random_game_seconds(game, games: int) -> float:
    started = time.process_time()
    for seed in range(games):
        state = new_game(game, seed=seed)
        play_match(state, [RandomPlayer(seed * 2 + i) for i in range(len(state.players))], seed=seed)
    return (time.process_time() - started) / games


def measure(game, games: int, most: int = 0) -> dict:
    per_decision, longest, decisions, greedy_game = greedy_decisions(game, games, most)
    found = {"hexes": len(game.map.hexes) if game.map else 0, "units": len(game.units), "ms_per_decision": per_decision,
             "max_ms": longest, "decisions": decisions}
    if not most:
        random_game = random_game_seconds(game, max(10, games * 10))
        found.update(greedy_game_s=greedy_game, in_random_games=greedy_game / random_game)
    return found


def win_rates(name: str, game, games: int, jobs: int, scenario: str | None = None) -> tuple[dict[str, float], dict[str, float]]:
    """(side -> the share of `games` greedy-against-random games greedy won playing it (seeds 0..games-1),
    side -> CPU seconds such a game costs, every process counted)."""
    from rulec.cli.simulate_command import simulate

    sides = list(game.sides)
    rates, seconds = {}, {}
    for side in sides:
        kinds = {s: "greedy" if s == side else "random" for s in sides}
        started = _cpu_with_children()
        records = simulate(name, game, (), kinds, range(games), jobs, scenario=scenario)
        seconds[side] = (_cpu_with_children() - started) / len(records)
        rates[side] = sum(r.winner == side for r in records) / len(records)
    return rates, seconds


def _cpu_with_children() -> float:
    """CPU seconds of this process and of the worker processes it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def line(name: str, row: dict) -> str:
    text = (f"{name}: {row['ms_per_decision']:6.2f} ms per greedy decision, at most {row['max_ms']:6.1f}"
            f" ({row['decisions']} decisions)")
    if "in_random_games" in row:
        text += f"; a greedy-against-random game costs {row['in_random_games']:5.1f} random games ({row['greedy_game_s']:.2f} s)"
    if "wins" in row:
        text += "; greedy wins " + ", ".join(f"{100 * rate:.0f}% as {side}" for side, rate in row["wins"].items())
        text += f" of {row['win_games']} games a side"
        text += " (" + ", ".join(f"{s:.1f} s a game as {side}" for side, s in row["win_seconds"].items()) + ")"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=3, help="games per side")
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("--against", metavar="REV", help="also measure commit REV, side by side")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="a tiny made-up game, one game a side (a test runs it)")
    parser.add_argument("--decisions", type=int, default=0, metavar="N",
                        help="on --game, time only the first N greedy decisions of each game")
    parser.add_argument("--wins", type=int, default=0, metavar="N",
                        help="also play N greedy-against-random games a side on --game and print the win rates")
    parser.add_argument("--jobs", type=int, default=1, help="processes for --wins")
    parser.add_argument("--scenario", default=None, help="the scenario --wins plays (the game's own by default)")
    args = parser.parse_args(argv)
    if args.quick:
        args.n = 1
    if args.against:
        arguments = ["-n", str(args.n), "--game", args.game, "--json", "--decisions", str(args.decisions),
                     "--wins", str(args.wins), "--jobs", str(args.jobs)] + (["--quick"] if args.quick else [])
        arguments += ["--scenario", args.scenario] if args.scenario else []
        with reference.checkout(args.against) as tree:
            try:
                rows = [("this " + reference.describe_this(), reference.run_json(reference.ROOT, "greedy.py", arguments)),
                        (reference.describe(args.against), reference.run_json(tree, "greedy.py", arguments))]
            except reference.MeasurementFailed as error:
                print(f"not measured against {reference.describe(args.against)}: {error.why}")
                return 1
    else:
        made_up = compile_text(game_text(columns=8, rows=6, units=8) if args.quick else game_text(columns=14, rows=10, units=40))
        game = load_game(args.game)
        found = {"made_up": measure(made_up, args.n), "game": measure(game, args.n, args.decisions)}
        if args.wins:
            rates, seconds = win_rates(args.game, game, args.wins, args.jobs, args.scenario)
            found["game"].update(wins=rates, win_seconds=seconds, win_games=args.wins)
        if args.json:
            print(json.dumps(found))
            return 0
        rows = [("", found)]
    print(f"greedy against random, greedy on each side in turn, {args.n} games a side, CPU time")
    width = max(len(name) for name, _ in rows)
    for key, title in (("made_up", "made-up game"), ("game", args.game)):
        first = rows[0][1][key]
        print(f"  {title} ({first['hexes']} hexes, {first['units']} units)")
        for name, found in rows:
            print(f"    {line(name or 'this tree', found[key]) if width else line('this tree', found[key])}")
    if not args.quick:
        per_decision = rows[0][1]["made_up"]["ms_per_decision"]
        print(f"  aim: under {AIM_MS:.0f} ms per decision on the made-up game: {'met' if per_decision < AIM_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
