"""Random playouts of a game: full games per second and actions per second on one core,
and how `rulec simulate` scales from one worker process to two.

    .venv/bin/python benchmarks/playouts.py [--game drive_on_metz] [-n 200] [--profile]
    .venv/bin/python benchmarks/playouts.py --against 20317e9 [-n 200] [--rounds 3]
    .venv/bin/python benchmarks/playouts.py --side-by-side drive_on_metz,the_marne [--seconds 10] [--top 12]

The aim for Drive on Metz is 200 random playouts per second on one core.
Two random policies are measured, written here so that both trees play the same one:
`actions`, a uniform choice among `legal_actions()` (a move in two steps, a battle declared
step by step), and `orders`, a uniform choice among `legal_orders()`, every move given at
once (as 20317e9 played: its legal actions were whole orders, so there both policies are
one). A policy's games differ in length from tree to tree, so each row also gives the moves
and battles (die rolls) of a game and the CPU µs an action costs.
Each policy is also measured drawn by the engine's samplers (`sample_legal_action`, `sample_legal_order`: the
same distribution, without listing every action where a movement phase allows), as random players and rollouts
draw; a tree without them (20317e9, 7740628) lists and chooses there too, so that row compares the sampler with
the reference's list.
`--profile` prints where the time of the one-core run goes (cProfile, top 25); `--by-kind` by kind of action (how
many a game, µs to choose and to apply one), with `--against` for both trees side by side.
`--against REV` prints this tree's figures (CPU time, one core) and those of commit REV
side by side, each policy on both sides: REV is checked out into a temporary directory
(`git archive`), and the two are measured in turns, each in a fresh process, the
best of `--rounds` rounds kept for each (the machine may be busy in between). Each process first plays
two games of each policy that are not measured (seeds from WARM_UP_SEEDS): its tables and caches are warm,
as in a long run, but no measured game is one it played already, whose searches it would find kept (nor
do two rows play the same seeds: a tree without samplers lists in the sampled rows, and would replay the games of
the listed ones).
`--side-by-side` measures several games in one run (each scenario of a game that has
scenarios), as many games a row as fit in `--seconds` of CPU time, prints each row's
ratio to the first game's, then each game's top functions.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import time
from pathlib import Path

import reference

reference.tree_on_path()

from rulec.cli.simulate_command import simulate  # noqa: E402
from rulec.engine import new_game  # noqa: E402
from rulec.pipeline import load_game  # noqa: E402

AIM = 200.0


POLICIES = ("actions", "orders")
SAMPLED = {"actions": "sample_legal_action", "orders": "sample_legal_order"}  # each policy's sampler (same distribution)
MEASURED = (*POLICIES, *(f"{policy}, sampled" for policy in POLICIES))  # each policy listed, then drawn by its sampler
WARM_UP_SEEDS = 1_000_000  # the seeds of the games that warm a process up, none of them measured
# Each policy's games, from these seeds, listed or sampled each on seeds of its own: where both policies are one
# (20317e9), or a tree without samplers lists where the sampled rows draw, a row is not another's games replayed (the
# process would find their searches kept)
FIRST_SEED = {"actions": 0, "orders": 500_000, "actions, sampled": 250_000, "orders, sampled": 750_000}


def choices(state, policy: str) -> list:
    """What a random player of `policy` chooses among (a tree without legal_orders lists whole orders as its actions)."""
    if policy == "orders" and hasattr(state, "legal_orders"):
        return state.legal_orders()
    return state.legal_actions()


def next_action(state, rng: random.Random, policy: str, drawn: bool):
    """What a random player of `policy` ("actions" or "orders", `drawn` by its sampler) plays next, a chance outcome
    drawn by its weight: the one draw every measured game makes (playout, by_kind)."""
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes], k=1)[0]
    sampler = getattr(state, SAMPLED[policy], None) if drawn else None
    return sampler(rng) if sampler is not None else rng.choice(choices(state, policy))


def playout(game, seed: int, policy: str, scenario: str | None = None, record=None) -> tuple[int, int, int]:
    """One random game of `policy` (one of MEASURED): (actions applied, moves made, battles fought: their die rolls).
    `record` (a hashlib object, or None): each action played is added to it, to tell whether two engines played
    the same games (compiled.py --against)."""
    policy, _, drawn = policy.partition(", ")
    # a reference engine older than scenarios (--against) takes no scenario argument
    state = new_game(game, seed=seed, scenario=scenario) if scenario else new_game(game, seed=seed)
    rng = random.Random(seed)
    actions = moves = battles = 0
    while not state.is_terminal():
        chance = state.is_chance_node()
        action = next_action(state, rng, policy, bool(drawn))
        if chance:
            battles += 1
        else:
            kind = action.kind
            moves += (kind == "move" and action.hex is not None) or kind == "exit"
        state.apply_action(action)
        actions += 1
        if record is not None:
            record.update(str(action).encode())
    return actions, moves, battles


def kind_of(action) -> str:
    """An action's row in --by-kind: its kind, the first steps (a unit chosen, nothing moved yet) apart."""
    kind = action.kind
    if kind in ("move", "place") and action.hex is None:
        return f"{kind} (unit chosen)"
    if kind == "advance" and action.unit is None:
        return "advance (declined)"
    return kind


def by_kind(game, games: int, policy: str, first_seed: int) -> dict:
    """Random games of `policy`, each action timed (CPU): for each kind of action (kind_of; chance outcomes as
    "die roll"), how many a game, the µs spent choosing one (listing and choosing, or the sampler's draw) and
    applying it, and its share of the games' time. The timers cost a little per action: compare rows of one run,
    or of two trees run so (--against), not with the playouts/s of the other rows."""
    base, _, drawn = policy.partition(", ")
    counts: dict[str, int] = {}
    spent: dict[str, list[float]] = {}
    clock = time.process_time
    for seed in range(first_seed, first_seed + games):
        state = new_game(game, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            chance = state.is_chance_node()
            started = clock()
            action = next_action(state, rng, base, bool(drawn))
            chosen = clock()
            kind = "die roll" if chance else kind_of(action)
            state.apply_action(action)
            applied = clock()
            counts[kind] = counts.get(kind, 0) + 1
            times = spent.setdefault(kind, [0.0, 0.0])
            times[0] += chosen - started
            times[1] += applied - chosen
    total = sum(a + b for a, b in spent.values()) or 1e-9
    return {kind: {"per_game": counts[kind] / games, "choose_us": 1e6 * spent[kind][0] / counts[kind],
                   "apply_us": 1e6 * spent[kind][1] / counts[kind], "share": sum(spent[kind]) / total}
            for kind in sorted(counts, key=lambda k: -sum(spent[k]))} | {"(game)": {"ms": 1e3 * total / games}}


def print_by_kind(policy: str, columns: list[tuple[str, dict]]) -> None:
    """--by-kind's table: a row a kind of action, one group of columns a tree."""
    print(f"policy '{policy}', CPU time by kind of action (timed one by one)")
    kinds = [k for k in columns[0][1] if k != "(game)"]
    kinds += [k for _, found in columns[1:] for k in found if k != "(game)" and k not in kinds]
    width = max(36, *(len(label) for label, _ in columns))
    print(f"  {'':20}" + "".join(f" | {label:<{width}}" for label, _ in columns))
    print(f"  {'kind':20}" + "".join(f" | {'a game   choose     apply   share':<{width}}" for _ in columns))
    for kind in kinds:
        cells = []
        for _, found in columns:
            got = found.get(kind)
            cell = (f"{got['per_game']:6.1f} {got['choose_us']:6.1f} µs {got['apply_us']:6.1f} µs {got['share']:6.1%}"
                    if got else "-")
            cells.append(f" | {cell:<{width}}")
        print(f"  {kind:20}" + "".join(cells))
    games = [found["(game)"]["ms"] for _, found in columns]
    print(f"  {'a game':20}" + "".join(f" | {f'{ms:.1f} ms':<{width}}" for ms in games)
          + (f"   the first x{games[1] / games[0]:.2f} as fast" if len(games) == 2 else ""))


def one_core(game, games: int, scenario: str | None = None, seconds: float | None = None,
             policy: str = "actions", first_seed: int = 0, record=None) -> dict:
    """Random games of `policy` in this process, CPU time: `games` of them (seeds from `first_seed`), or with
    `seconds` as many as fit in that much CPU time (at least two). Playouts and actions a second, moves and battles
    a game, µs an action. `record`: see playout."""
    actions = moves = battles = played = 0
    started = time.process_time()
    for seed in range(first_seed, first_seed + (games if seconds is None else 1_000_000)):
        if seconds is not None and played >= 2 and time.process_time() - started >= seconds:
            break
        done = playout(game, seed, policy, scenario, record)
        actions, moves, battles, played = actions + done[0], moves + done[1], battles + done[2], played + 1
    elapsed = time.process_time() - started
    return {"playouts_per_s": played / elapsed, "actions_per_s": actions / elapsed, "us_per_action": 1e6 * elapsed / actions,
            "moves_per_game": moves / played, "battles_per_game": battles / played, "actions_per_game": actions / played}


def decision_sizes(game, scenario: str | None, seed: int = 0) -> tuple[float, int]:
    """(mean, largest) number of legal actions at the players' decisions of one random game (not timed)."""
    state = new_game(game, seed=seed, scenario=scenario) if scenario else new_game(game, seed=seed)
    rng, sizes = random.Random(seed), []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        actions = state.legal_actions()
        sizes.append(len(actions))
        state.apply_action(rng.choice(actions))
    return sum(sizes) / max(1, len(sizes)), max(sizes, default=0)


def side_by_side(names: list[str], seconds: float, top: int) -> None:
    """Each game's random playouts per CPU second (each scenario of a game that has them) beside the first
    game's, the size of its decisions, then where each game's time goes (its top functions by own time)."""
    rows = []
    for name in names:
        game = load_game(name)
        for scenario in list(game.scenarios) or [None]:
            one_core(game, 1, scenario)  # warm the per-game tables
            found = one_core(game, 0, scenario, seconds)
            playouts, actions = found["playouts_per_s"], found["actions_per_s"]
            rows.append((name + (f" / {scenario}" if scenario else ""), playouts, actions, decision_sizes(game, scenario)))
    print(f"random playouts, CPU time on one core (about {seconds:.0f} s a row); legal actions a decision, mean and largest")
    width = max(len(row[0]) for row in rows)
    for label, playouts, actions, (mean, largest) in rows:
        print(f"  {label:<{width}} {playouts:9.2f} playouts/s {actions:9.0f} actions/s {mean:6.1f} / {largest:4d} actions"
              f"   x{playouts / rows[0][1]:.3f} of {rows[0][0]}'s playouts/s, x{actions / rows[0][2]:.2f} its actions/s")
    for name in names:
        game = load_game(name)
        profiler = cProfile.Profile()
        profiler.enable()
        one_core(game, 0, None, seconds / 2)
        profiler.disable()
        print(f"\nwhere {name}'s time goes (top {top} functions by own time, profiled):")
        stats = pstats.Stats(profiler)
        total = sum(row[2] for row in stats.stats.values()) or 1.0
        ranked = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:top]
        for (path, line, function), (_, calls, own, cumulative, _) in ranked:
            where = f"{path.rsplit('rulec/', 1)[-1]}:{line}({function})"
            print(f"  {own / total:6.1%} own  {cumulative / total:6.1%} with callees  {calls:9d} calls  {where}")


def simulate_rate(name: str, game, games: int, jobs: int) -> float:
    kinds = {side: "random" for side in game.sides}
    started = time.perf_counter()
    simulate(name, game, (), kinds, range(games), jobs)
    return games / (time.perf_counter() - started)


def row(label: str, found: dict, width: int) -> str:
    return (f"  {label + ':':<{width + 1}} {found['playouts_per_s']:8.1f} playouts/s {found['actions_per_s']:9.0f} actions/s "
            f"{found['us_per_action']:7.1f} µs/action  a game: {found['actions_per_game']:6.1f} actions "
            f"{found['moves_per_game']:6.1f} moves {found['battles_per_game']:5.1f} battles")


def best_of_rounds(trees: list[tuple[str, Path]], game: str, games: int, rounds: int) -> dict[str, dict]:
    """Each tree's one-core figures (--json, each run in a fresh process), the trees measured in turns (neither always
    first), the best round of each policy kept; with what the tree says it lacks (whole_orders_only, samplers).
    Used by --against and by benchmarks/targets.py."""
    best: dict[str, dict] = {}
    for round_ in range(rounds):
        for name, tree in trees if round_ % 2 == 0 else trees[::-1]:
            found = reference.run_json(tree, "playouts.py", ["--game", game, "-n", str(games), "--json"])
            kept = best.get(name)
            best[name] = found if kept is None else {
                policy: max(kept[policy], found[policy], key=lambda f: f["playouts_per_s"]) for policy in MEASURED}
            # a reference without legal_orders plays whole orders under both policies, and one without the
            # samplers lists where they would draw: it says so
            best[name]["whole_orders_only"] = found.get("whole_orders_only", False)
            best[name]["samplers"] = found.get("samplers", False)
    return best


def against(rev: str, game: str, games: int, rounds: int) -> None:
    """This tree and commit `rev`, side by side, each policy on both sides: each tree measured in a fresh process,
    in turns, the best round of each kept."""
    with reference.checkout(rev) as reference_tree:
        best = best_of_rounds([("this", reference.ROOT), ("reference", reference_tree)], game, games, rounds)
    ours, theirs = best["this"], best["reference"]
    print(f"{game}, {games} random games per measurement, best of {rounds} rounds, CPU time on one core")
    labels = (f"this ({reference.describe_this()})", f"reference ({reference.describe(rev)})")
    width = max(map(len, labels))
    for policy in MEASURED:
        base, _, drawn = policy.partition(", ")
        print(f"policy '{policy}': a uniform choice among {'legal_orders()' if base == 'orders' else 'legal_actions()'}"
              + (f", drawn by {SAMPLED[base]}()" if drawn else "")
              + (" (the reference has no legal_orders: its actions are whole orders)"
                 if theirs["whole_orders_only"] and base == "orders" else "")
              + (" (the reference has no sampler: it lists and chooses)" if drawn and not theirs["samplers"] else ""))
        for label, found in zip(labels, (ours[policy], theirs[policy])):
            print(row(label, found, width))
        mine, other = ours[policy], theirs[policy]
        print(f"  ratio this/reference: x{mine['playouts_per_s'] / other['playouts_per_s']:.2f} playouts/s, "
              f"x{mine['actions_per_s'] / other['actions_per_s']:.2f} actions/s; the games are "
              f"x{mine['moves_per_game'] / max(other['moves_per_game'], 1e-9):.2f} as many moves, "
              f"x{mine['battles_per_game'] / max(other['battles_per_game'], 1e-9):.2f} as many battles")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="drive_on_metz")
    parser.add_argument("-n", type=int, default=200, help="games per measurement")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--policy", choices=MEASURED, default="actions", help="with --profile: the policy profiled")
    parser.add_argument("--against", metavar="REV", help="also measure commit REV, side by side")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: rounds, the best of each kept")
    parser.add_argument("--json", action="store_true", help="print only the one-core figures (CPU time), as JSON")
    parser.add_argument("--no-simulate", action="store_true", help="leave out the rulec simulate rows")
    parser.add_argument("--side-by-side", metavar="GAMES", help="comma-separated games (e.g. drive_on_metz,the_marne): "
                        "playouts/s of each (and of each scenario) beside the first's, and their top functions")
    parser.add_argument("--seconds", type=float, default=10.0, help="with --side-by-side: CPU seconds a row")
    parser.add_argument("--top", type=int, default=12, help="with --side-by-side: functions listed a game")
    parser.add_argument("--by-kind", action="store_true", help="where a game's time goes by kind of action (--policy's "
                        "games, -n of them): a game's count of each, µs to choose one and to apply it; with --against, "
                        "both trees side by side")
    args = parser.parse_args(argv)
    if args.by_kind:
        by_kind_rows(args)
        return
    if args.side_by_side:
        side_by_side(args.side_by_side.split(","), args.seconds, args.top)
        return
    if args.against:
        try:
            against(args.against, args.game, args.n, args.rounds)
        except reference.MeasurementFailed as error:
            print(f"{args.game}: not measured against {reference.describe(args.against)}: {error.why}")
        return
    game = load_game(args.game)
    for policy in MEASURED:  # warm the per-game tables and caches, as a long run's are, with games not measured:
        one_core(game, 2, policy=policy, first_seed=WARM_UP_SEEDS)  # a game played again would find its searches kept
    if args.json:
        found: dict = {policy: one_core(game, args.n, policy=policy, first_seed=FIRST_SEED[policy]) for policy in MEASURED}
        found["whole_orders_only"] = not hasattr(new_game(game, seed=0), "legal_orders")
        found["samplers"] = hasattr(new_game(game, seed=0), "sample_legal_action")
        print(json.dumps(found))
        return
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        one_core(game, args.n, policy=args.policy)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    print(f"{args.game}, {args.n} random games per measurement, CPU time on one core")
    for policy in MEASURED:
        found = one_core(game, args.n, policy=policy, first_seed=FIRST_SEED[policy])
        rate = found["playouts_per_s"]
        aim = f"(aim {AIM:.0f} playouts/s: {'met' if rate >= AIM else f'{rate / AIM:.0%} of it'})"
        print(row(policy, found, len("actions, sampled")) + "  " + aim)
    if args.no_simulate:
        return
    jobs_1 = simulate_rate(args.game, game, args.n, 1)
    jobs_2 = simulate_rate(args.game, game, args.n, 2)
    print(f"  simulate --jobs 1: {jobs_1:8.1f} games/s (random players, wall time)")
    print(f"  simulate --jobs 2: {jobs_2:8.1f} games/s  (x{jobs_2 / jobs_1:.2f})")


def by_kind_rows(args: argparse.Namespace) -> None:
    """--by-kind: this tree's table, or (--against) this tree's and the reference's, each run in a fresh process
    after warm-up games (--json: only the figures)."""
    arguments = ["--game", args.game, "-n", str(args.n), "--policy", args.policy, "--by-kind", "--json"]
    if args.against:
        columns = []
        with reference.checkout(args.against) as reference_tree:
            for label, tree in ((f"this ({reference.describe_this()})", reference.ROOT),
                                (f"reference ({reference.describe(args.against)})", reference_tree)):
                try:
                    columns.append((label, reference.run_json(tree, "playouts.py", arguments)))
                except reference.MeasurementFailed as error:
                    print(f"{args.game}: not measured in {label}: {error.why}")
                    return
        print(f"{args.game}, {args.n} random games a tree")
        print_by_kind(args.policy, columns)
        return
    game = load_game(args.game)
    one_core(game, 2, policy=args.policy, first_seed=WARM_UP_SEEDS)  # warm, with games not measured
    found = by_kind(game, args.n, args.policy, FIRST_SEED[args.policy])
    if args.json:
        print(json.dumps(found))
        return
    print(f"{args.game}, {args.n} random games")
    print_by_kind(args.policy, [(f"this ({reference.describe_this()})", found)])


if __name__ == "__main__":
    main()
