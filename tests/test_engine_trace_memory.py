"""A trace search keeps its conditions' answers from one position to the next and asks again only where the
position changed (rulec/engine/trace_memory.py), or, where its conditions are set algebra over hex facts, keeps its
layers and the hexes it let pass (rulec/engine/trace_sets.py): the answer must be the one a search from scratch
gives, at every position of random games, in positions far apart (clones of earlier positions) and after
counterfactual searches (traced_without). Played on made-up games, The Marne (both ways), and Drive on Metz given a
supply trace."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, EngineContext, new_game
from rulec.engine.hex_bits import hexes
from rulec.engine.trace_sets import held_bits
from rulec.engine.traces import search, traced_hexes
from rulec.pipeline import load_game
from rulec.players import RandomPlayer

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path(__file__).parent / "games"

# Drive on Metz has no supply rule; this one reads occupants, enemy ZOC and holders at the hex, and a river step:
# an objective (0701, 0807) held by the enemy blocks it, and supplies its holder.
METZ_SUPPLY = """
trace supply {
  from { us = [west, 0701, 0807]  germany = [east, 0701, 0807] }
  through = not enemy_occupied(hex) and (not enemy_zoc(hex) or friendly_occupied(hex))
            and (not (hex in objectives) or controls(friendly, hex) or friendly_occupied(hex))
  across = not crossing(from_hex, hex, river) or friendly_occupied(from_hex) or friendly_occupied(hex)
  max_length = 7
  lost_when = enemy_occupied(hex) or (hex in objectives and not controls(friendly, hex))
}
modifier out_of_supply { applies = unit  when = not supplied(unit)  strength_times = 0.5 }
"""


def metz_with_supply(tmp_path, across: bool = True):
    """Drive on Metz with METZ_SUPPLY; without its `across`, the trace's conditions are set algebra (trace_sets.py)."""
    path = tmp_path / "metz_supply.rulec"
    supply = METZ_SUPPLY if across else "\n".join(line for line in METZ_SUPPLY.splitlines() if "across" not in line)
    path.write_text((ROOT / "games" / "drive_on_metz.rulec").read_text() + supply)
    return load_game(str(path))


def afresh(state, trace, side):
    """The search from scratch: no answer kept from another position, every condition asked hex by hex."""
    found = search(state, replace(trace, reads_at_hex=None, sets=None), side, EngineContext(state))
    return hexes(found, state.tables.numbered)  # (a search's hexes come as bits of hex numbers)


def hex_by_hex(game):
    """`game` with its traces' conditions asked hex by hex (trace_memory.py), not as sets (trace_sets.py)."""
    return replace(game, traces={tid: replace(trace, sets=None) for tid, trace in game.traces.items()})


def assert_kept_answers_exact(state) -> None:
    for trace in state.game.traces.values():
        for side in state.game.sides:
            assert traced_hexes(state, trace.id, side, EngineContext) == afresh(state, trace, side), (trace.id, side)


def play_and_compare(game, seeds: range, positions: int) -> int:
    """Random games; at every position the kept answers are checked, and now and then those of a clone of an
    earlier position (the kept answers then come from a position far away). Returns the positions checked."""
    checked = 0
    rng = random.Random(11)
    for seed in seeds:
        state = new_game(game, seed=seed)
        player, earlier = RandomPlayer(seed), []
        while not state.is_terminal() and checked < positions:
            assert_kept_answers_exact(state)
            checked += 1
            if rng.random() < 0.1:
                earlier.append(state.clone())
            if earlier and rng.random() < 0.1:
                old = rng.choice(earlier)
                old.forget()  # ask again, from the answers kept for the newest position
                assert_kept_answers_exact(old)
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(player.choose(state))
    return checked


def test_the_checker_tells_which_traces_read_the_position_only_at_their_hex(tmp_path):
    # enemy_zoc(hex) reads the tracing side's own view of the enemy zones ("own zoc"), not every side's ("zoc")
    assert load_game("the_marne").traces["supply"].reads_at_hex == ("holders", "occupants", "own zoc")
    assert load_game(str(GAMES / "bridgehead.rulec")).traces["supply"].reads_at_hex == ("occupants",)
    assert metz_with_supply(tmp_path).traces["supply"].reads_at_hex == ("holders", "occupants", "own zoc")
    text = (GAMES / "bridgehead.rulec").read_text()
    for through, reads in (("not enemy_zoc(friendly, hex)", ("occupants", "own zoc")),
                           ("not enemy_zoc(red, hex)", ("occupants", "zoc"))):
        path = tmp_path / "g.rulec"
        path.write_text(text.replace("through = not enemy_occupied(hex)", f"through = not enemy_occupied(hex) and {through}"))
        assert load_game(str(path)).traces["supply"].reads_at_hex == reads, through
    # A condition that reads a neighbour's occupant, or the turn, cannot be followed hex by hex.
    for through in ("not enemy_occupied(hex) and not any(n in neighbours(hex) where enemy_occupied(n))",
                    "not enemy_occupied(hex) or turn > 2", "not enemy_occupied(0101)"):
        path = tmp_path / "g.rulec"
        path.write_text(text.replace("through = not enemy_occupied(hex)", f"through = {through}"))
        assert load_game(str(path)).traces["supply"].reads_at_hex is None, through


def test_the_checker_writes_conditions_on_hex_facts_as_sets(tmp_path):
    sets = load_game("the_marne").traces["supply"].sets
    assert sets[0] == ("and", (("not", ("enemy", None)), ("or", (("not", ("zoc", None)), ("friends", None)))))
    lost = sets[1]
    assert lost[0] == "or" and lost[1][0] == ("enemy", None)
    folded, held = lost[1][1][1]  # friendly == allies (the side alone: folded), and controls(germany, hex)
    assert folded[0] == "hexes" and folded[1].source == "friendly == allies" and held == ("held", "germany")
    # A step's condition on the position (bridgehead's `across` reads who stands there) is asked step by step.
    assert load_game(str(GAMES / "bridgehead.rulec")).traces["supply"].sets is None
    text = (GAMES / "cut_off.rulec").read_text()
    original = next(line for line in text.splitlines() if "through =" in line).strip()
    for through, expected in (("occupied(hex) or enemy_zoc(red, hex)", ("or", (("occupied", None), ("zoc", "red")))),
                              ("not controls(friendly, hex)", ("not", ("held", None)))):
        path = tmp_path / "g.rulec"
        path.write_text(text.replace(original, f"through = {through}"))
        assert load_game(str(path)).traces["supply"].sets[0] == expected, through
    for through in ("not any(n in neighbours(hex) where enemy_occupied(n))", "not enemy_occupied(hex) or turn > 2",
                    "not enemy_occupied(0101)", "true"):  # (a plain `true` is no expression: nothing to write as sets)
        path = tmp_path / "g.rulec"
        path.write_text(text.replace(original, f"through = {through}"))
        assert load_game(str(path)).traces["supply"].sets is None, through


def test_a_search_asks_again_only_where_the_position_changed():
    game = load_game(str(GAMES / "bridgehead.rulec"))
    asked = []
    trace = game.traces["supply"]
    counting = replace(trace, through=replace(trace.through, function=lambda ctx: asked.append(ctx.hex) or
                                              trace.through.function(ctx)))
    game = replace(game, traces={"supply": counting})
    state = new_game(game).arrange({"b1": "0602", "r1": "0702", "r2": "0804"}, phase="blue_combat")
    first = traced_hexes(state, "supply", "blue", EngineContext)
    assert len(asked) > 20
    asked.clear()
    moved = state.arrange({"b1": "0602", "r1": "0702", "r2": "0502"}, phase="blue_combat")  # r2 onto the bridge
    second = traced_hexes(moved, "supply", "blue", EngineContext)
    assert set(asked) <= {"0804", "0502"} and "0502" in asked  # only the hexes whose occupants changed
    assert "0602" in first and "0602" not in second  # and the answer follows: the bridge is held
    assert second == afresh(moved, counting, "blue")


@pytest.mark.parametrize("name", ["bridgehead", "cut_off", "supply_leash", "river_assault"])
def test_kept_answers_are_exact_over_random_games_of_made_up_games(name):
    assert play_and_compare(load_game(str(GAMES / f"{name}.rulec")), range(40), 400) >= 300


@pytest.mark.parametrize("across", [True, False], ids=["a step condition: hex by hex", "as sets"])
def test_kept_answers_are_exact_over_random_games_of_drive_on_metz_with_a_supply_trace(tmp_path, across):
    game = metz_with_supply(tmp_path, across)
    assert (game.traces["supply"].sets is None) == across
    assert play_and_compare(game, range(20), 1000) == 1000


@pytest.mark.parametrize("asked", ["as sets", "hex by hex"])
def test_kept_answers_are_exact_over_random_games_of_the_marne(monkeypatch, asked):
    from rulec.engine import trace_sets, traces
    searches = {"again from a layer": 0, "from the sources": 0}
    game = load_game("the_marne")
    assert game.traces["supply"].sets is not None
    if asked == "hex by hex":
        game = hex_by_hex(game)
        spread = traces._spread

        def counted(state, trace, side, values, ask):
            partly = values.layers is not None and 0 <= values.restart < len(values.layers)
            searches["again from a layer" if partly else "from the sources"] += 1
            return spread(state, trace, side, values, ask)

        monkeypatch.setattr(traces, "_spread", counted)
    else:
        spread_sets = trace_sets._spread

        def counted_sets(layers, passing, steps_of, limit):
            searches["again from a layer" if len(layers) > 1 else "from the sources"] += 1
            return spread_sets(layers, passing, steps_of, limit)

        monkeypatch.setattr(trace_sets, "_spread", counted_sets)
    assert play_and_compare(game, range(1), 250) == 250
    # A change searched again only from the layer it reaches (trace_memory._ask_again, trace_sets._still_holding),
    # checked exact above.
    assert searches["again from a layer"] > 10


def test_the_hexes_a_side_holds_follow_a_change_of_hands(metz):
    """held_bits is kept by the holders' version: a move that takes a town gives the position a new version and the
    town among the side's hexes; the position before keeps its version and its answer."""
    state = new_game(metz).arrange({"us_cca": "0601", "de_1010": "0911"}, turn=2, phase="us_movement")
    town = state.tables.index["0701"]
    before, version = held_bits(state, "us"), state.holders_version
    assert not before >> town & 1
    after = state.clone()
    after.apply_action(Action.move("us_cca", "0703"))  # along the road through Thionville (0701): taken in passing
    assert after.holders["0701"] == "us" and after.holders_version != version
    assert held_bits(after, "us") == before | 1 << town
    assert held_bits(state, "us") == before and state.holders_version == version


def cut_off_lost_in_a_zone(tmp_path):
    """tests/games/cut_off with Red's depot lost in a Blue zone of control, not only under a Blue unit: `lost_when`
    then changes at a source where `through` does not (a Red unit on the depot opens it to its own trace)."""
    text = (GAMES / "cut_off.rulec").read_text()
    assert text.count("lost_when = enemy_occupied(hex)") == 1
    path = tmp_path / "cut_off_lost_in_a_zone.rulec"
    path.write_text(text.replace("lost_when = enemy_occupied(hex)", "lost_when = enemy_zoc(hex)"))
    return load_game(str(path))


@pytest.mark.parametrize("asked", ["as sets", "hex by hex"])
def test_a_source_lost_where_its_trace_still_passes_supplies_nobody(tmp_path, asked):
    """A Blue unit steps next to Red's one source, the depot (1002), on which a Red unit stands: the depot is lost
    (in a Blue zone) though the Red unit still lets the trace through it. The trace kept from the position before
    must not spread from it any more: only a search from the sources again knows that."""
    game = cut_off_lost_in_a_zone(tmp_path)
    game = hex_by_hex(game) if asked == "hex by hex" else game
    assert (game.traces["supply"].sets is None) == (asked == "hex by hex")
    trace = game.traces["supply"]
    start = new_game(game)
    away = {"r3": "1002", "r1": "0302", "b2": "0101", "b3": "0102"}
    supplied = start.arrange({**away, "b1": "0503"}, phase="red_move")
    kept = traced_hexes(supplied, "supply", "red", EngineContext)
    assert {"1002", "0902", "0802"} <= kept and kept == afresh(supplied, trace, "red")
    cut = start.arrange({**away, "b1": "0902"}, phase="red_move")  # next to the depot
    assert "1002" in cut.enemy_zoc("red")
    assert traced_hexes(cut, "supply", "red", EngineContext) == afresh(cut, trace, "red") == frozenset()


@pytest.mark.parametrize("asked", ["as sets", "hex by hex"])
def test_a_source_that_lets_its_trace_through_again_supplies_again(tmp_path, asked):
    """A Blue unit on Red's depot closes it to Red's trace (nothing is supplied); once it steps away and no Blue zone
    reaches the depot, the trace spreads from it again, though no hex it reached before changed."""
    game = cut_off_lost_in_a_zone(tmp_path)
    game = hex_by_hex(game) if asked == "hex by hex" else game
    trace = game.traces["supply"]
    start = new_game(game)
    away = {"r3": "0603", "r1": "0302", "b2": "0101", "b3": "0102"}
    blocked = start.arrange({**away, "b1": "1002"}, phase="red_move")
    assert traced_hexes(blocked, "supply", "red", EngineContext) == afresh(blocked, trace, "red") == frozenset()
    open_again = start.arrange({**away, "b1": "0503"}, phase="red_move")
    found = traced_hexes(open_again, "supply", "red", EngineContext)
    assert {"1002", "0902"} <= found and found == afresh(open_again, trace, "red")
