"""The compiled engine (`make fast`, mypyc) against pure Python: the same random playouts, CPU time, one core.

    .venv/bin/python benchmarks/compiled.py [--games drive_on_metz,the_marne] [--seconds 20] [--rounds 2]
                                             [--policy orders] [--tree DIR | --build]
    .venv/bin/python benchmarks/compiled.py --ai greedy [--decisions 60] [--tree DIR | --build]
    .venv/bin/python benchmarks/compiled.py --against REV [--policy "orders, sampled"] [--rounds 3] [--tree DIR | --build]
    .venv/bin/python benchmarks/compiled.py --against REV --instructions 40 --games drive_on_metz [--tree DIR | --build]

Each game (a game with scenarios: its first) is measured in turns in fresh processes, pure Python (RULEC_PURE=1)
then compiled, the best of `--rounds` rounds kept for each, and the ratio of their CPU times printed. Both play the
same games: benchmarks/playouts.py's random policy (`orders`: whole orders from legal_orders(), as 20317e9 played; or
`actions`), seeds 0, 1, ... as many as pure Python plays in `--seconds` of CPU time in its first round.
The compiled engine is this tree's when `make fast` built it, else `--tree DIR`'s (a checkout where it was built);
`--build` first builds one in a temporary copy of this tree (a few minutes).

`--against REV` measures two compiled engines instead: this tree's build (`--tree DIR`, `--build`, or this checkout
where `make fast` built it) against commit REV's, built in a temporary copy (a few minutes), in turns, the same random
games on both sides (`--policy`: also "orders, sampled" or "actions, sampled", the engines' samplers), and says
whether they played the same games (a digest of every action): a change that draws otherwise plays other games,
and its ratio compares different games. This is how a change to the engine is measured where it is used compiled.

`--instructions GAMES` counts instead of timing, on either side by side: the instructions `GAMES` random games of
each game execute (valgrind's callgrind counts them; those of starting and loading the game, counted in a run that
plays none, taken off), once a side. A count is not a time (a cache miss costs more than an add), but the machine's
load does not move it: on a shared, busy machine it shows a change of a few per cent that timed rounds drown. Under
valgrind a game runs some fifty times slower (drive_on_metz: 40 games, the_marne: 2, take a minute or two a side).

`--ai greedy` (or `mcts`) measures an AI instead: CPU ms per decision of that AI on every side, the first
`--decisions` decisions of benchmarks/ai.py's game, the same game on both sides (checked).

`--histories GAME[:SCENARIO] ...` (tests/test_engine_compiled.py) prints, as JSON, the full action histories and
returns of seeded random games played by whichever engine this process runs; `--checked FILE ...`, what checking
each game file gives (its diagnostics and generated module), and whether its units and phases pickle and copy back.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import re

import reference

TREE = reference.tree_on_path()

# The random policies a side by side may play (playouts.MEASURED: listed, or drawn by the engine's samplers).
POLICIES = ("actions", "orders", "actions, sampled", "orders, sampled")
# What a copy needs to build and play: the package, the games and the build script (no built file, no cache).
COPIED = ("rulec", "schemas", "games", "generated", "tests/games", "tests/bad_games", "benchmarks", "setup.py", "mypyc.ini",
          "pyproject.toml")
_LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "compiled_build.json", "build", "search_core.c")


def copy_tree(source: Path, dest: Path) -> Path:
    for name in COPIED:
        if (source / name).is_dir():
            shutil.copytree(source / name, dest / name, ignore=_LEFT_OUT)
        elif (source / name).exists():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, dest / name)
    return dest


def build(tree: Path, timeout: float = 1800) -> None:
    """Compile the engine in place in `tree` (setup.py with RULEC_COMPILE=1); RuntimeError with the log on failure."""
    env = {**os.environ, "RULEC_COMPILE": "1"}
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"building the compiled engine failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def run_engine(tree: Path, compiled: bool, args: list[str], timeout: float = 3600, counted: bool = False) -> dict:
    """Run this script in a fresh process on `tree`'s rulec, compiled or pure Python; its JSON answer. `counted`:
    under valgrind's callgrind, the instructions the whole process executed added to the answer (`instructions`)."""
    env = {**os.environ, "RULEC_TREE": str(tree), "PYTHONPATH": str(tree)}
    env["RULEC_PURE"] = "0" if compiled else "1"
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    if counted:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise RuntimeError(f"{'compiled' if compiled else 'pure'} run failed:\n{done.stderr[-3000:]}")
    found = json.loads(done.stdout)
    if counted:
        total = re.search(r"Collected : (\d+)", done.stderr)
        if total is None:
            raise RuntimeError(f"valgrind said no instruction count:\n{done.stderr[-3000:]}")
        found["instructions"] = int(total.group(1))
    return found


def _counting_tool() -> None:
    """Stop with a clear message where valgrind, which --instructions runs, is not installed."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions counts with valgrind, which is not installed here (Debian: apt install "
                         "valgrind)")


# ------------------------------------------------------------ in the worker process
def _engine() -> str:
    from rulec.fast_path import engine_kind

    return engine_kind()


def _spec(spec: str):
    from rulec.pipeline import load_game

    name, _, scenario = spec.partition(":")
    game = load_game(name)
    return game, scenario or ((game.scenarios and next(iter(game.scenarios))) or None)


def checked(files: list[str]) -> dict:
    """Each game file checked: its diagnostics, the generated module's hash (a game that checks), and whether its units
    and sequence of play pickle and deep-copy back equal. The compiled build makes the game model's classes native,
    which check every field's type as the checker builds them."""
    import copy
    import hashlib
    import pickle

    from rulec.pipeline import check_file, generate

    found: dict = {"engine": _engine(), "files": {}}
    for name in files:
        result = check_file(name)
        entry: list = [f"{d.code} {d.severity} {d.span} {d.message} {d.hint}" for d in result.diagnostics]
        game = result.game
        if game is not None:
            entry.append(hashlib.sha256(generate(game).encode()).hexdigest())
            entry.append(all(pickle.loads(pickle.dumps(u)) == u and copy.deepcopy(u) == u for u in game.units.values())
                         and copy.deepcopy(game.sequence) == game.sequence)
        found["files"][name] = entry
    return found


def histories(specs: list[str], seeds: int, cap: int, player: str | None = None) -> dict:
    """Seeded random games of each spec: every action, the returns, whether the game ended (cap: most actions a game).
    Seeds choose uniformly among legal_actions(), draw with sample_legal_action, or with sample_legal_order, in turn
    (every path tested);
    with `player` (greedy, mcts...), that AI plays every side instead (rulec.players' own seeded match).
    Each game is played with the cycle collector off, and `cycles` counts what it finds once the game is dropped: the
    objects of reference cycles the game left (none, in either engine: tests/test_engine_no_cycles.py)."""
    from rulec.engine import new_game
    from rulec.language.parse import parser

    parser()  # built once a process, when an AI's evaluator first reads an award: its making's garbage is no game's
    found: dict = {"engine": _engine(), "games": {}}
    for spec in specs:
        game, scenario = _spec(spec)
        played = []
        for seed in range(seeds):
            gc.collect()
            gc.disable()
            try:
                played.append(_history(new_game(game, seed=seed, scenario=scenario), seed, cap, player))
                played[-1]["cycles"] = gc.collect()  # (the game's state dropped as _history returned)
            finally:
                gc.enable()
        found["games"][spec] = played
    found["native"] = _native()
    return found


def _history(state, seed: int, cap: int, player: str | None) -> dict:
    """One game of histories(), played from `state`."""
    from rulec.players.match import play_match
    from rulec.players.setup import build_players

    rng = random.Random(seed)
    if player is not None:
        sides = list(state.players)
        play_match(state, build_players({side: player for side in sides}, sides, seed), seed=seed, max_actions=cap)
    for _ in range(cap if player is None else 0):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]
        elif seed % 3 == 1:
            action = state.sample_legal_action(rng)
        elif seed % 3 == 2:
            action = state.sample_legal_order(rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    return {"history": [str(a) for a in state.history()], "returns": state.returns(), "terminal": state.is_terminal(),
            "vp": dict(state.vp)}


def _native() -> list[str]:
    """The native modules (rulec.fast_path.NATIVE: Cython, the compiled engine's alone) this process has loaded."""
    from rulec import fast_path

    return sorted(m for m in getattr(fast_path, "NATIVE", ()) if m in sys.modules)


def measure(spec: str, seconds: float, policy: str, games: int | None) -> dict:
    """playouts.one_core's figures for `games` random games (None: as many as fit in `seconds`), with how many, and
    a digest of every action they played. `games` 0: the game loaded, none played (what --instructions takes off)."""
    import playouts

    game, scenario = _spec(spec)
    if games == 0:
        return {"engine": _engine(), "played": 0}
    record = hashlib.sha256()
    started = time.process_time()
    figures = playouts.one_core(game, games or 0, scenario, seconds=None if games else seconds, policy=policy,
                                record=record)
    played = games or round(figures["playouts_per_s"] * (time.process_time() - started))
    return {"engine": _engine(), "played": played, "games": record.hexdigest()[:16], **figures}


def measure_ai(spec: str, kind: str, decisions: int) -> dict:
    """CPU ms per decision of the AI `kind` on every side (benchmarks/ai.py's game, seed 1), its first `decisions`
    decisions (a decision with one legal action is not counted), and a digest of the game."""
    import ai

    game, scenario = _spec(spec)
    played = ai.play(game, kind, 1, float("inf"), decisions, scenario)
    thinking = played["decisions"]
    return {"engine": _engine(), "ms_per_decision": 1000 * sum(thinking) / max(1, len(thinking)),
            "decisions": len(thinking), "games": played["digest"]}


# ------------------------------------------------------------ the side by side
def ai_side_by_side(tree: Path, specs: list[str], kind: str, decisions: int, rounds: int) -> None:
    print(f"rulec tree: {tree}; {kind} on every side, its first {decisions} decisions; CPU time, one core, "
          f"best of {rounds} rounds")
    print(f"{'game':<22} {'decisions':>9} {'pure ms/decision':>17} {'compiled':>9} {'ratio':>6}")
    for spec in specs:
        best: dict[bool, dict] = {}
        for _ in range(rounds):
            for compiled in (False, True):
                found = run_engine(tree, compiled, ["--measure", spec, "--ai", kind, "--decisions", str(decisions)])
                if compiled != found["engine"].startswith("compiled"):
                    raise SystemExit(f"asked for the {'compiled' if compiled else 'pure'} engine, got: {found['engine']} "
                                     "(build it: make fast, or --build)")
                if compiled not in best or found["ms_per_decision"] < best[compiled]["ms_per_decision"]:
                    best[compiled] = found
        pure, fast = best[False], best[True]
        if pure["games"] != fast["games"]:
            raise SystemExit(f"{spec}: the compiled engine played other games than pure Python")
        print(f"{spec:<22} {pure['decisions']:>9} {pure['ms_per_decision']:>17.2f} {fast['ms_per_decision']:>9.2f} "
              f"x{pure['ms_per_decision'] / fast['ms_per_decision']:>5.2f}")



def _best_rounds(spec: str, sides: list[tuple[str, Path, bool]], seconds: float, rounds: int,
                 policy: str) -> tuple[int, dict[str, dict]]:
    """Each side (a label, a tree and whether its engine is compiled) plays `spec`'s random games in turns, `rounds`
    times: as many games as the first played in `seconds` of CPU time. The games played, and each side's best round
    (its most playouts a second)."""
    best: dict[str, dict] = {}
    games = None
    for _ in range(rounds):
        for label, tree, compiled in sides:
            found = run_engine(tree, compiled, ["--measure", spec, "--seconds", str(seconds), "--policy", policy,
                                                *(["--count", str(games)] if games else [])])
            games = games or found["played"]
            if compiled != found["engine"].startswith("compiled"):
                raise SystemExit(f"{label}: asked for the {'compiled' if compiled else 'pure'} engine, got: "
                                 f"{found['engine']} (build it: make fast, or --build)")
            if label not in best or found["playouts_per_s"] > best[label]["playouts_per_s"]:
                best[label] = found
    assert games is not None  # (rounds >= 1)
    return games, best


def _instructions_a_game(spec: str, sides: list[tuple[str, Path, bool]], games: int, policy: str) -> dict[str, dict]:
    """Each side (a label, a tree and whether its engine is compiled) plays `games` of `spec`'s random games under
    valgrind, and loads the game without playing under it: its measure's answer, with the instructions a game."""
    found: dict[str, dict] = {}
    for label, tree, compiled in sides:
        args = ["--measure", spec, "--policy", policy, "--count"]
        played = run_engine(tree, compiled, [*args, str(games)], counted=True)
        loaded = run_engine(tree, compiled, [*args, "0"], counted=True)
        if compiled != played["engine"].startswith("compiled"):
            raise SystemExit(f"{label}: asked for the {'compiled' if compiled else 'pure'} engine, got: "
                             f"{played['engine']} (build it: make fast, or --build)")
        found[label] = {**played, "per_game": (played["instructions"] - loaded["instructions"]) / games}
    return found


def side_by_side(tree: Path, specs: list[str], seconds: float, rounds: int, policy: str,
                 instructions: int | None = None) -> None:
    if instructions:
        print(f"rulec tree: {tree}; policy: {policy}; instructions (valgrind), {instructions} games a row")
        print(f"{'game':<22} {'games':>6} {'pure M instr./game':>19} {'compiled':>9} {'ratio':>6}")
        for spec in specs:
            counted = _instructions_a_game(spec, [("pure", tree, False), ("compiled", tree, True)], instructions, policy)
            pure, fast = counted["pure"], counted["compiled"]
            if pure["games"] != fast["games"]:
                raise SystemExit(f"{spec}: the compiled engine played other games than pure Python")
            print(f"{spec:<22} {instructions:>6} {pure['per_game'] / 1e6:>19.2f} {fast['per_game'] / 1e6:>9.2f} "
                  f"x{pure['per_game'] / fast['per_game']:>5.2f}")
        return
    print(f"rulec tree: {tree}; policy: {policy}; CPU time, one core, best of {rounds} rounds of about {seconds:.0f} s")
    print(f"{'game':<22} {'games':>6} {'pure playouts/s':>16} {'compiled playouts/s':>20} {'µs/action pure':>15} "
          f"{'compiled':>9} {'ratio':>6}")
    for spec in specs:
        games, best = _best_rounds(spec, [("pure", tree, False), ("compiled", tree, True)], seconds, rounds, policy)
        pure, fast = best["pure"], best["compiled"]
        if pure["games"] != fast["games"]:
            raise SystemExit(f"{spec}: the compiled engine played other games than pure Python")
        print(f"{spec:<22} {games:>6} {pure['playouts_per_s']:>16.2f} {fast['playouts_per_s']:>20.2f} "
              f"{pure['us_per_action']:>15.0f} {fast['us_per_action']:>9.0f} "
              f"x{pure['us_per_action'] / fast['us_per_action']:>5.2f}")


def against_side_by_side(tree: Path, rev: str, specs: list[str], seconds: float, rounds: int, policy: str,
                         instructions: int | None = None) -> None:
    """This tree's compiled engine against commit `rev`'s, built in a temporary copy: each spec's random games in
    turns, the best round of each kept (or with `instructions`, that many games counted once a side), and whether
    both played the same games."""
    engine = run_engine(tree, True, ["--engine"])["engine"]
    if not engine.startswith("compiled"):  # (said before REV is built: minutes)
        raise SystemExit(f"this tree's engine is {engine}, not compiled: build it (make fast), or give --build or "
                         "--tree DIR")
    with reference.checkout(rev) as other:
        setup = other / "setup.py"
        if not setup.is_file() or "RULEC_COMPILE" not in setup.read_text():
            raise SystemExit(f"not measured against {reference.describe(rev)}: it has no compiled engine to build "
                             "(make fast came with ce7c536)")
        started = time.monotonic()
        build(other)
        print(f"built {reference.describe(rev)}'s compiled engine in {time.monotonic() - started:.0f} s")
        name = reference.describe(rev)
        if instructions:
            _against_counted(tree, other, name, specs, instructions, policy)
            return
        print(f"rulec: this tree ({tree}) against {name}, both compiled; policy: {policy}; CPU time, one core, "
              f"best of {rounds} rounds")
        print(f"{'game':<22} {'games':>6} {'this playouts/s':>16} {name + ' playouts/s':>20} "
              f"{'µs/action this':>15} {name:>9} {'ratio':>6}  same games")
        for spec in specs:
            games, best = _best_rounds(spec, [("this", tree, True), (name, other, True)], seconds, rounds, policy)
            ours, theirs = best["this"], best[name]
            print(f"{spec:<22} {games:>6} {ours['playouts_per_s']:>16.2f} {theirs['playouts_per_s']:>20.2f} "
                  f"{ours['us_per_action']:>15.1f} {theirs['us_per_action']:>9.1f} "
                  f"x{theirs['us_per_action'] / ours['us_per_action']:>5.2f}  "
                  + ("yes" if ours["games"] == theirs["games"] else "NO: other games, the ratio compares them"))


def _against_counted(tree: Path, other: Path, name: str, specs: list[str], games: int, policy: str) -> None:
    print(f"rulec: this tree ({tree}) against {name}, both compiled; policy: {policy}; instructions (valgrind), "
          f"{games} games a row")
    print(f"{'game':<22} {'games':>6} {'this M instr./game':>19} {name:>12} {'ratio':>6}  same games")
    for spec in specs:
        counted = _instructions_a_game(spec, [("this", tree, True), (name, other, True)], games, policy)
        ours, theirs = counted["this"], counted[name]
        print(f"{spec:<22} {games:>6} {ours['per_game'] / 1e6:>19.2f} {theirs['per_game'] / 1e6:>12.2f} "
              f"x{theirs['per_game'] / ours['per_game']:>5.2f}  "
              + ("yes" if ours["games"] == theirs["games"] else "NO: other games, the ratio compares them"))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="drive_on_metz,the_marne", help="games (GAME or GAME:SCENARIO), commas")
    parser.add_argument("--seconds", type=float, default=20.0, help="CPU seconds a measurement (a row's each side)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--policy", choices=POLICIES, default="orders")
    parser.add_argument("--against", metavar="REV", help="this tree's compiled engine against commit REV's (built)")
    parser.add_argument("--tree", type=Path, help="a checkout where `make fast` built the compiled engine")
    parser.add_argument("--build", action="store_true", help="build the compiled engine in a temporary copy first")
    parser.add_argument("--ai", choices=("greedy", "mcts"), help="measure this AI's decisions instead of playouts")
    parser.add_argument("--decisions", type=int, default=120, help="with --ai: decisions timed")
    parser.add_argument("--instructions", type=int, metavar="GAMES",
                        help="count instructions (valgrind) of GAMES random games a row rather than time rounds")
    parser.add_argument("--histories", nargs="+", metavar="GAME[:SCENARIO]", help=argparse.SUPPRESS)
    parser.add_argument("--checked", nargs="+", metavar="FILE", help=argparse.SUPPRESS)
    parser.add_argument("--seeds", type=int, default=4, help=argparse.SUPPRESS)
    parser.add_argument("--cap", type=int, default=100_000, help=argparse.SUPPRESS)
    parser.add_argument("--player", help=argparse.SUPPRESS)
    parser.add_argument("--measure", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--engine", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.engine:  # (which engine runs in the tree this process was started on)
        print(json.dumps({"engine": _engine()}))
        return
    if args.histories:
        print(json.dumps(histories(args.histories, args.seeds, args.cap, args.player)))
        return
    if args.checked:
        print(json.dumps(checked(args.checked)))
        return
    if args.measure:
        found = measure_ai(args.measure, args.ai, args.decisions) if args.ai else \
            measure(args.measure, args.seconds, args.policy, args.count)
        print(json.dumps(found))
        return
    specs = [s for s in args.games.split(",") if s]
    if args.instructions is not None:  # (said before anything is built: minutes)
        if args.instructions < 1 or args.ai:
            raise SystemExit("--instructions counts random playouts: give it one game or more, and no --ai")
        _counting_tool()
    if args.build:
        with tempfile.TemporaryDirectory(prefix="rulec-compiled-") as scratch:
            tree = copy_tree(TREE, Path(scratch))
            started = time.monotonic()
            build(tree)
            print(f"built the compiled engine in {time.monotonic() - started:.0f} s")
            _compare(tree, specs, args)
        return
    _compare(args.tree.resolve() if args.tree else TREE, specs, args)


def _compare(tree: Path, specs: list[str], args: argparse.Namespace) -> None:
    if args.against:
        if args.ai:
            raise SystemExit("--against measures random playouts, not an AI's decisions: drop --ai")
        against_side_by_side(tree, args.against, specs, args.seconds, args.rounds, args.policy, args.instructions)
    elif args.ai:
        ai_side_by_side(tree, specs, args.ai, args.decisions, args.rounds)
    else:
        side_by_side(tree, specs, args.seconds, args.rounds, args.policy, args.instructions)


if __name__ == "__main__":
    main()
