"""What traces and modifiers cost: one supply search, and random play with and without them.

    .venv/bin/python benchmarks/traces.py            # 100, 1,000 and 5,000 hexes
    .venv/bin/python benchmarks/traces.py --quick    # tiny sizes, seconds

Each size is the made-up game of benchmarks/made_up_game.py, plus (for the second
measure) a supply trace from each side's map edge that enemy units and zones of
control block and forests never let through, and a modifier halving the strength
and taking 1 MP from units out of supply. Columns (CPU time):

- fold ms: the first search of a side, its map conditions folded into a set of hexes;
- search ms: a search in a new position (the fold kept, no answer kept);
- moved ms: a search once one unit has moved a hex, the answers of the position before kept
  (engine/trace_memory.py: asked again only where occupants or ZOC changed);
- plain us/action, traced us/action: random play without and with the trace and modifier,
  and their ratio.
"""

from __future__ import annotations

import argparse
import time

import reference

reference.tree_on_path()

from made_up_game import compile_text, game_text  # noqa: E402

from rulec.engine import EngineContext, new_game  # noqa: E402
from rulec.players import RandomPlayer  # noqa: E402
from rulec.players.base import sample_chance  # noqa: E402
from rulec.players.match import chance_rng  # noqa: E402

FULL = ((10, 10, 20), (40, 25, 100), (100, 50, 400))
QUICK = ((6, 5, 4), (9, 8, 8))

SUPPLY = """
trace supply {
  from { west = west  east = east }
  through = not has_terrain(hex, forest) and not enemy_occupied(hex) and (not enemy_zoc(hex) or friendly_occupied(hex))
}
modifier out_of_supply { applies = unit  when = not supplied(unit)  strength_times = 0.5  move_plus = -1 }
"""


def per_action(game, actions: int, seed: int = 0) -> float:
    """CPU microseconds per action of random play (games restarted when they end)."""
    players = [RandomPlayer(seed=seed + i) for i in range(2)]
    rng = chance_rng(seed)
    state = new_game(game, seed=seed)
    started = time.process_time()
    for _ in range(actions):
        if state.is_terminal():
            state = new_game(game, seed=seed)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(players[state.current_player()].choose(state))
    return (time.process_time() - started) / actions * 1e6


def searches(game) -> tuple[float, float, float]:
    """(ms of the first search of a side, ms of a search afresh in a new position, ms of a search once one unit
    has moved a hex, from the answers kept for the position before)."""
    state = new_game(game)
    unit = next(iter(state.positions))

    def timed(position) -> float:
        started = time.process_time()
        EngineContext(position).traced("supply", position.unit(unit))
        return (time.process_time() - started) * 1000

    first = timed(state)
    state._cache.clear()  # a new position: the search is done again, the folded map conditions kept
    for key in [k for k in state._folded_traces if k[0] == "kept"]:  # and no answer kept (engine/trace_memory.py)
        del state._folded_traces[key]
    again = timed(state)
    places = dict(state.positions)
    mover = next(uid for uid in places if uid != unit)
    places[mover] = next(n for n in state.tables.neighbours[places[mover]] if n not in places.values())
    moved = state.arrange(places)  # shares the kept answers, like a clone
    return first, again, timed(moved)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--actions", type=int, default=None)
    args = parser.parse_args()
    sizes = QUICK if args.quick else FULL
    actions = args.actions or (60 if args.quick else 2000)
    print(f"{'hexes':>6} {'units':>6} {'fold ms':>8} {'search ms':>10} {'moved ms':>9} {'plain us/action':>16} {'traced us/action':>17} {'ratio':>6}")
    for columns, rows, units in sizes:
        text = game_text(columns, rows, units)
        plain, traced = compile_text(text), compile_text(text + SUPPLY)
        fold, search, moved = searches(traced)
        a, b = per_action(plain, actions), per_action(traced, actions)
        print(f"{columns * rows:>6} {units:>6} {fold:>8.2f} {search:>10.2f} {moved:>9.2f} {a:>16.0f} {b:>17.0f} {b / a:>6.2f}")


if __name__ == "__main__":
    main()
