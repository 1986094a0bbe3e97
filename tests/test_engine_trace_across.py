"""A trace that a hexside can block (trace { across }), played on tests/games/bridgehead.rulec: a river
between columns 4 and 5 that supply crosses only by the bridge (0402/0502, folded once a game into the
blocked steps) or by the ford (0403/0504, 0404/0504) while a friendly unit stands on either bank (asked at
each search). Out of supply: half strength, and no joining an attack that would not reopen supply.
Each test asserts the effect in play: the odds, the joins offered and refused, the answers of the trace."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, EngineContext, IllegalAction, new_game
from rulec.engine.hex_bits import hexes
from rulec.engine.traces import search
from rulec.pipeline import check, load_game, parse

GAME_FILE = Path(__file__).parent / "games" / "bridgehead.rulec"
BRIDGE_LINE = "  hexsides the_bridge { feature = bridge  sides = [0402/0502] }\n"


@pytest.fixture(scope="module")
def game():
    return load_game(str(GAME_FILE))


def variant(tmp_path, old: str, new: str):
    text = GAME_FILE.read_text()
    assert old in text
    path = tmp_path / "g.rulec"
    path.write_text(text.replace(old, new))
    return load_game(str(path))


def supplied(state, uid: str) -> bool:
    return EngineContext(state).traced("supply", state.unit(uid))


def traced_hex(state, side: str, h: str) -> bool:
    return EngineContext(state).traced_hex("supply", side, h)


def red_attack_on_b1(state):
    return state.odds(Action.attack("0602", ("r1",)))


def test_supply_crosses_the_river_by_the_bridge(game):
    state = new_game(game).arrange({"b1": "0602", "r1": "0702"}, phase="red_combat")
    assert supplied(state, "b1") and red_attack_on_b1(state).defence == 4
    # 0501 is across a river hexside from 0401, yet traced: by the bridge, then along the east bank.
    assert traced_hex(state, "blue", "0501") and traced_hex(state, "blue", "0401")


def test_without_the_bridge_the_river_cuts_supply_and_halves_the_defender(tmp_path):
    no_bridge = variant(tmp_path, BRIDGE_LINE, "")
    state = new_game(no_bridge).arrange({"b1": "0602", "r1": "0702"}, phase="red_combat")
    assert not supplied(state, "b1")
    odds = red_attack_on_b1(state)
    assert odds.defence == 2 and odds.modifiers == ("out_of_supply",)
    # Every hex of the west bank is traced; no hex of the east bank is, though nothing stands between.
    assert all(traced_hex(state, "blue", f"04{r:02}") for r in range(1, 5))
    assert not any(traced_hex(state, "blue", f"05{r:02}") for r in range(1, 5))
    # Red traces from the east edge and stops at the river the same way.
    assert traced_hex(state, "red", "0502") and not traced_hex(state, "red", "0402")


def test_the_map_part_is_folded_into_open_steps_once_for_every_game_on_the_map(game):
    trace = game.traces["supply"]
    assert trace.across_static.source == "not crossing(from_hex, hex, river) or crossing(from_hex, hex, bridge)"
    assert "friendly_occupied" in trace.across.source and "river" not in trace.across.source
    state = new_game(game).arrange({"b1": "0602", "r1": "0702"}, phase="red_combat")
    assert supplied(state, "b1")
    steps, _ = state.tables.trace_folds[("steps", "supply", "blue")]  # the steps a search may take (hex_bits.Steps)
    index = state.tables.index

    def open_step(a, b):
        return bool(steps.into(index[b]) >> index[a] & 1)

    assert not open_step("0401", "0501") and not open_step("0501", "0401")  # a river hexside, both ways
    assert not open_step("0403", "0503")
    assert open_step("0402", "0502") and open_step("0404", "0504")  # the bridge; the ford is positional
    assert open_step("0401", "0402")  # no hexside feature: open
    clone = state.clone()
    clone.apply_action(Action.end())
    assert clone._folded_traces is state._folded_traces
    other = new_game(game).arrange({"b1": "0602", "r1": "0702"}, phase="red_combat")  # another game, the same map
    assert supplied(other, "b1")
    assert other.tables.trace_folds[("steps", "supply", "blue")][0] is steps  # not worked out again


def test_an_enemy_on_the_bridge_cuts_supply_and_a_friendly_unit_on_a_bank_opens_the_ford(game):
    def defence(places):
        state = new_game(game).arrange({"b1": "0602", "r1": "0702", "r2": "0502", **places}, phase="red_combat")
        return supplied(state, "b1"), red_attack_on_b1(state).defence

    assert defence({}) == (False, 2)  # the bridge's far end is held by the enemy; the ford is unwatched
    assert defence({"b2": "0404"}) == (True, 4)  # a friendly unit on the west bank of the ford
    assert defence({"b2": "0504"}) == (True, 4)  # ... or on its east bank
    assert defence({"b2": "0403"}) == (True, 4)  # 0403/0504 is a ford hexside too
    assert defence({"b2": "0304"}) == (False, 2)  # next to the ford is not on it


def test_the_step_condition_sees_the_position_it_is_asked_in(game):
    # b2 stands on the ford's east bank: b1 is in supply; red eliminates b2 and the ford closes behind it.
    state = new_game(game).arrange({"b1": "0602", "b2": "0504", "r1": "0604", "r2": "0502"}, phase="red_combat")
    assert supplied(state, "b1")
    assert state.odds(Action.attack("0602", ("r2",))).defence == 4
    for step in state.parse_orders("attack 0504 with r1"):
        state.apply_action(step)
    assert state.battle.odds.label == "+0"
    state.apply_action(Action.roll(5))  # column "0": 5 is DE
    assert state.status("b2") == "eliminated"
    assert not supplied(state, "b1") and state.odds(Action.attack("0602", ("r2",))).defence == 2


def test_a_unit_cut_off_by_the_river_may_join_only_an_attack_that_would_reopen_its_supply(game):
    # r2 holds the bridge's east end: b1 is out of supply. Clearing r2 would reopen the bridge (traced_without);
    # clearing r1 would not.
    state = new_game(game).arrange({"b1": "0602", "r1": "0702", "r2": "0502"}, phase="blue_combat")
    assert not supplied(state, "b1")
    assert {a.hex for a in state.legal_actions() if a.kind == "attack"} == {"0502"}
    with pytest.raises(IllegalAction) as error:
        state.apply_action(Action.attack("0702"))
    assert error.value.rule == "S.1" and "b1 may not join a battle against 0702" in error.value.message
    state.apply_action(Action.attack("0502"))
    state.apply_action(Action.with_unit("b1"))
    assert state.declaring.attackers == ("b1",)
    assert state.odds(Action.attack("0502", ("b1",))).attack == 2  # still out of supply while it attacks


def test_every_trace_query_agrees_with_a_search_from_scratch_over_random_games(game):
    """traced, traced_hex and the kept answers are the search's: replayed over random games, at every position."""
    import random

    from rulec.players import RandomPlayer

    rng = random.Random(7)
    checked = 0
    afresh = replace(game.traces["supply"], reads_at_hex=None)  # searched from scratch, nothing kept
    for seed in range(6):
        state = new_game(game, seed=seed)
        player = RandomPlayer(seed=seed)
        while not state.is_terminal() and checked < 400:
            for side in ("blue", "red"):
                fresh = hexes(search(state, afresh, side, EngineContext(state)), state.tables.numbered)
                assert all(traced_hex(state, side, h) == (h in fresh) for h in state.tables.hexes)
            checked += 1
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(rng.choice(outcomes))
            else:
                state.apply_action(player.choose(state))
    assert checked > 50


def test_random_games_keep_the_engine_promises_with_a_step_condition(game):
    from rulec.engine.conformance import check_game

    assert check_game(game, n_games=20, seed=5) == []


def problems(tmp_path, old: str, new: str):
    text = GAME_FILE.read_text()
    assert old in text
    path = tmp_path / "g.rulec"
    path.write_text(text.replace(old, new))
    return [d for d in check(parse(path))[1] if d.is_error]


def test_a_misspelt_name_in_across_is_placed_and_gets_a_did_you_mean(tmp_path):
    line = GAME_FILE.read_text().splitlines().index(
        "           and (not crossing(from_hex, hex, ford) or friendly_occupied(from_hex) or friendly_occupied(hex))") + 1
    [problem] = problems(tmp_path, "friendly_occupied(from_hex)", "friendly_occupied(from_hx)")
    assert problem.code == "wrong-kind-argument" and "not 'from_hx'" in problem.message
    assert problem.hint == "did you mean 'from_hex'?"
    assert (problem.span.line, problem.span.column) == (line, 72)
    [problem] = problems(tmp_path, "friendly_occupied(from_hex)", "from_hx != hex")
    assert problem.code == "unknown-name" and "'from_hx'" in problem.message and "'from_hex'" in problem.hint
    assert problem.span.line == line


def test_the_hex_a_step_leaves_exists_only_in_across(tmp_path):
    [problem] = problems(tmp_path, "through = not enemy_occupied(hex)",
                         "through = not enemy_occupied(hex) and not crossing(from_hex, hex, river)")
    assert problem.code == "unknown-name" and "'from_hex' exists only in a trace's 'across'" in problem.message
    assert "across = not crossing(from_hex, hex, river)" in problem.hint
    [problem] = problems(tmp_path, "when = not supplied(unit)", "when = not supplied(unit) and unit.hex == from_hex")
    assert problem.code == "unknown-name" and "across" in problem.message


def test_across_is_a_condition_and_may_not_ask_a_trace(tmp_path):
    [problem] = problems(tmp_path, "  across = (not", "  across = 1 + (not")
    assert problem.code == "wrong-kind"
    [problem] = problems(tmp_path, "  across = (not", "  across = traced_hex(supply, friendly, from_hex) and (not")
    assert problem.code == "trace-cycle"


def test_the_compiled_module_plays_the_same_and_type_checks(tmp_path):
    from rulec.cli.main import main as rulec_main
    from rulec.pipeline import load_compiled

    assert rulec_main(["compile", str(GAME_FILE), "--out", str(tmp_path)]) == 0
    compiled = load_compiled(tmp_path / "bridgehead.py")
    state = new_game(compiled).arrange({"b1": "0602", "r1": "0702", "r2": "0502"}, phase="red_combat")
    assert not supplied(state, "b1") and red_attack_on_b1(state).defence == 2
    state = new_game(compiled).arrange({"b1": "0602", "b2": "0404", "r1": "0702", "r2": "0502"}, phase="red_combat")
    assert supplied(state, "b1")
    api = pytest.importorskip("mypy.api")
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary",
                                    str(tmp_path / "bridgehead.py")])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process
    assert status == 0, out + err
