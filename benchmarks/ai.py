"""What the AI players cost: CPU seconds of an MCTS-against-MCTS game, and CPU milliseconds of a greedy decision.

    .venv/bin/python benchmarks/ai.py [--game drive_on_metz] [-n 2]
    .venv/bin/python benchmarks/ai.py --game the_marne -n 1 --greedy-decisions 200
    .venv/bin/python benchmarks/ai.py --profile                 # where an MCTS game's time goes: players or engine
    .venv/bin/python benchmarks/ai.py --against 7740628 --max-seconds 120   # and a reference commit, side by side

Each game is played with the players `rulec play` makes (`make_player`, each seat
seeded as the CLI seeds it) and the dice of `rulec play`, seeds 1..n; CPU time
(time.process_time) of the whole game, the engine's work included. A game that
has not ended after `--max-seconds` CPU seconds is stopped and reported as
unfinished (the MCTS of 7740628 declares and calls off one battle for ever). The
issue's targets: an MCTS game of Drive on Metz under 60 CPU s, of The Marne under
15 CPU minutes; a greedy decision on The Marne under 5 ms (decisions with one
legal order are not counted: the player does not think about them).
`--greedy-decisions N` times the first N greedy decisions of a greedy-against-greedy
game (0: the whole game), and also by the kind of phase they are made in (a combat phase's
first decision weighs every battle as a plan: a few of them take most of the time). `--profile` prints the share of an MCTS game's CPU spent in
the players' own code (rulec/players) and in the engine (rulec/engine, rulec/runtime),
then the top functions. `--against REV` measures commit REV in a fresh process (the same
script, `git archive`), in turns with this tree, and prints both and their ratios.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import random
import sys
import time

import reference

reference.tree_on_path()

from rulec.engine import new_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402
from rulec.players import make_player  # noqa: E402

TARGET_MCTS_S = {"drive_on_metz": 60.0, "the_marne": 15 * 60.0}
TARGET_GREEDY_MS = {"the_marne": 5.0}
CHANCE_SALT = 0x5EED  # the dice of rulec play (rulec/players/match.py), written out: older trees lack ChanceDice


def dice(seed: int) -> random.Random:
    return random.Random(seed * 1_000_003 + CHANCE_SALT)


def roll(state, rng: random.Random):
    outcomes = state.chance_outcomes()
    return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]


def play(game, kind: str, seed: int, max_seconds: float, timed_decisions: int = 0, scenario: str | None = None) -> dict:
    """One game with `kind` on every seat: its CPU seconds, whether it ended, its actions, turns, and the CPU
    time of each decision that had more than one legal action (the first `timed_decisions` of them, if set),
    with the kind of phase it was made in (movement, combat, ...), and a digest of its actions."""
    # (a tree older than scenarios takes no scenario argument)
    state = new_game(game, seed=seed, scenario=scenario) if scenario else new_game(game, seed=seed)
    players = [make_player(kind, seed * 1009 + seat + 1) for seat in range(len(state.players))]
    rng = dice(seed)
    thinking: list[float] = []
    phases: list[str] = []
    actions = 0
    started = time.process_time()
    while not state.is_terminal():
        if time.process_time() - started > max_seconds or (timed_decisions and len(thinking) >= timed_decisions):
            break
        if state.is_chance_node():
            action = roll(state, rng)
        else:
            several = len(state.legal_actions()) > 1
            before = time.process_time()
            action = players[state.current_player()].choose(state)
            if several:
                thinking.append(time.process_time() - before)
                phases.append(str(getattr(state.phase, "kind", "")))
        state.apply_action(action)
        actions += 1
    return {"seconds": time.process_time() - started, "finished": state.is_terminal(), "actions": actions,
            "turn": state.turn, "decisions": thinking, "phases": phases,
            "digest": hashlib.sha256(repr(state.history()).encode()).hexdigest()}


def measure(name: str, games: int, max_seconds: float, greedy_decisions: int) -> dict:
    game = load_game(name)
    new_game(game, seed=0)  # the per-game tables, once
    greedy = play(game, "greedy", 1, max_seconds, greedy_decisions)  # first: its few ms are the easier to disturb
    mcts = [play(game, "mcts", seed, max_seconds) for seed in range(1, games + 1)]
    decisions = greedy["decisions"]
    return {"game": name,
            "mcts_seconds": [g["seconds"] for g in mcts], "mcts_finished": [g["finished"] for g in mcts],
            "mcts_actions": [g["actions"] for g in mcts], "mcts_turns": [g["turn"] for g in mcts],
            "mcts_decision_ms": 1000 * sum(sum(g["decisions"]) for g in mcts) / max(1, sum(len(g["decisions"]) for g in mcts)),
            "greedy_ms": 1000 * sum(decisions) / max(1, len(decisions)), "greedy_max_ms": 1000 * max(decisions, default=0.0),
            "greedy_decisions": len(decisions), "greedy_finished": greedy["finished"],
            "greedy_by_phase": by_phase(decisions, greedy["phases"])}


def by_phase(decisions: list[float], phases: list[str]) -> dict[str, list[float]]:
    """Phase kind -> [decisions, their average ms, the share of all decisions' time]: where greedy spends it."""
    total = sum(decisions) or 1.0
    found: dict[str, list[float]] = {}
    for seconds, phase in zip(decisions, phases):
        row = found.setdefault(phase, [0, 0.0, 0.0])
        row[0] += 1
        row[1] += seconds
    return {phase: [count, 1000 * spent / count, spent / total] for phase, (count, spent, _) in found.items()}


def report(found: dict, label: str = "") -> None:
    name = found["game"]
    if found["mcts_seconds"]:
        report_mcts(found, label)
    print(f"greedy{label}: {found['greedy_ms']:.2f} ms a decision on average, longest {found['greedy_max_ms']:.1f} ms "
          f"({found['greedy_decisions']} decisions{'' if found['greedy_finished'] else ', game not played to its end'})")
    for phase, (count, ms, share) in sorted(found.get("greedy_by_phase", {}).items()):
        print(f"  in {phase} phases: {ms:.2f} ms a decision ({count} decisions, {share:.0%} of the time)")
    if name in TARGET_GREEDY_MS:
        target = TARGET_GREEDY_MS[name]
        print(f"  target: under {target:.0f} ms a decision: {'met' if found['greedy_ms'] < target else 'NOT met'}")


def report_mcts(found: dict, label: str) -> None:
    name = found["game"]
    print(f"{name}{label}: MCTS against MCTS (the players of rulec play), CPU time")
    for seed, (seconds, finished, actions, turn) in enumerate(zip(found["mcts_seconds"], found["mcts_finished"],
                                                                  found["mcts_actions"], found["mcts_turns"]), 1):
        print(f"  seed {seed}: {seconds:8.2f} CPU s  {actions:6d} actions  "
              + ("ended" if finished else f"NOT ENDED (stopped in turn {turn})"))
    target = TARGET_MCTS_S.get(name)
    worst = max(found["mcts_seconds"])
    ended = all(found["mcts_finished"])
    if target:
        verdict = "met" if ended and worst < target else "NOT met"
        print(f"  target: a game under {target:.0f} CPU s: {verdict} (slowest {worst:.2f} s)")
    print(f"  an MCTS decision: {found['mcts_decision_ms']:.1f} ms on average")


def profile(name: str, max_seconds: float, top: int) -> None:
    game = load_game(name)
    new_game(game, seed=0)
    profiler = cProfile.Profile()
    profiler.enable()
    play(game, "mcts", 1, max_seconds)
    profiler.disable()
    stats = pstats.Stats(profiler).stats
    total = sum(row[2] for row in stats.values()) or 1.0
    shares: dict[str, float] = {}
    for (path, _, _), (_, _, own, _, _) in stats.items():
        part = "players" if "rulec/players" in path else "engine" if "rulec/engine" in path or "rulec/runtime" in path \
            else "other"
        shares[part] = shares.get(part, 0.0) + own
    print(f"{name}, one MCTS game (seed 1), profiled: own time in " +
          ", ".join(f"{part} {own / total:.0%}" for part, own in sorted(shares.items(), key=lambda x: -x[1])))
    for (path, line, function), (_, calls, own, cumulative, _) in sorted(stats.items(), key=lambda x: -x[1][2])[:top]:
        print(f"  {own / total:6.1%} own  {cumulative / total:6.1%} with callees  {calls:9d} calls  "
              f"{path.rsplit('rulec/', 1)[-1]}:{line}({function})")


def against(rev: str, name: str, games: int, max_seconds: float, greedy_decisions: int) -> None:
    arguments = ["--game", name, "-n", str(games), "--max-seconds", str(max_seconds),
                 "--greedy-decisions", str(greedy_decisions), "--json"]
    with reference.checkout(rev) as tree:
        # A reference's own time is bounded by --max-seconds a game, so a player that loops is reported, not waited for.
        # Said before it starts: a game stopped that way takes all of it (7740628's MCTS never ends one).
        print(f"measuring this tree, then {reference.describe(rev)}: each MCTS game is stopped after "
              f"{max_seconds:g} CPU s (--max-seconds)", file=sys.stderr, flush=True)
        ours = reference.run_json(reference.ROOT, "ai.py", arguments)
        try:
            theirs = reference.run_json(tree, "ai.py", arguments)
        except reference.MeasurementFailed as error:
            theirs, why = None, error.why
    report(ours, f" (this, {reference.describe_this()})")
    if theirs is None:
        print(f"reference {reference.describe(rev)}: not measured: {why}")
        return
    report(theirs, f" (reference, {reference.describe(rev)})")
    print("ratios this/reference (below 1: this is faster):")
    pairs = list(zip(ours["mcts_seconds"], theirs["mcts_seconds"], ours["mcts_finished"], theirs["mcts_finished"]))
    for seed, (mine, other, done, other_done) in enumerate(pairs, 1):
        note = "" if done and other_done else "  (a game not ended: the ratio compares the time spent, not games)"
        print(f"  MCTS game, seed {seed}: x{mine / other:.2f}{note}")
    if theirs["greedy_ms"]:
        print(f"  greedy decision: x{ours['greedy_ms'] / theirs['greedy_ms']:.2f}")
        mine_by, theirs_by = ours.get("greedy_by_phase", {}), theirs.get("greedy_by_phase", {})
        for phase in sorted(set(mine_by) & set(theirs_by)):
            print(f"    in {phase} phases: x{mine_by[phase][1] / theirs_by[phase][1]:.2f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("-n", type=int, default=2, help="MCTS games (seeds 1..n; 0: greedy only)")
    parser.add_argument("--max-seconds", type=float, default=1800.0, help="CPU seconds after which a game is stopped")
    parser.add_argument("--greedy-decisions", type=int, default=0, help="greedy decisions timed (0: a whole game)")
    parser.add_argument("--profile", action="store_true", help="where an MCTS game's time goes")
    parser.add_argument("--top", type=int, default=20, help="with --profile: functions listed")
    parser.add_argument("--against", metavar="REV", help="also measure commit REV, side by side")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.game, args.max_seconds, args.top)
    elif args.against:
        against(args.against, args.game, args.n, args.max_seconds, args.greedy_decisions)
    else:
        found = measure(args.game, args.n, args.max_seconds, args.greedy_decisions)
        if args.json:
            print(json.dumps(found))
        else:
            report(found)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
