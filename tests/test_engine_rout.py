"""Retreats and advances written as expressions, played on a made-up game (tests/games/rout.rulec):
ordered retreat preferences (a condition, then the fewest units), `may_enter`, retreats one at a
time strongest first, advance by either victor within stacking, a hexside that blocks only the
defender's advance, units that share the fate of the attackers they retreated into, and a unit
modifier that makes a retreated unit add nothing."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rulec.engine import Action, new_game
from rulec.pipeline import load_game

GAMES = Path(__file__).parent / "games"


@pytest.fixture(scope="module")
def rout():
    return load_game(str(GAMES / "rout.rulec"))


def game_with(tmp_path, old: str, new: str):
    """rout.rulec with one piece of text replaced, checked and built like any game file."""
    text = (GAMES / "rout.rulec").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "variant.rulec"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load_game(str(path))


def with_retreat(game, **changes):
    return replace(game, combat=replace(game.combat, retreat=replace(game.combat.retreat, **changes)))


def fight(state, hex, *units, roll):
    for step in [Action.attack(hex), *(Action.with_unit(u) for u in units), Action.resolve(), Action.roll(roll)]:
        state.apply_action(step)
    return state


D1, A1, AE = 1, 3, 4  # the die rolls of rout.rulec's results (every column alike)


def retreat_ends(state):
    return {a.path[-1] for a in state.legal_actions()}


def test_a_vacant_hex_free_of_enemy_zoc_is_preferred(rout, tmp_path):
    # Blue b1 (0303) beats r1 (0403); r2 stands in 0503. Of the hexes r1 may retreat to, only the
    # vacant ones outside Blue's zone of control are offered; the friendly stack is not.
    place = {"b1": "0303", "r1": "0403", "r2": "0503"}
    state = fight(new_game(rout).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert state.current_player() == state.players.index("blue")  # the victor retreats the beaten unit
    zoc = state.enemy_zoc("red")
    offered = retreat_ends(state)
    assert offered == {"0404", "0504"}
    assert all(h not in zoc and h not in state.positions.values() for h in offered)
    # Without preferences the friendly stack in 0503 is a legal end too (may_enter lets it in).
    anywhere = fight(new_game(with_retreat(rout, prefer=())).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert retreat_ends(anywhere) == offered | {"0503"}


def test_with_no_vacant_hex_the_friendly_hex_with_fewest_units_is_preferred(rout):
    # b2 in 0305 controls the vacant 0404, which may not be entered; 0503 holds one red unit, 0504 two.
    place = {"b1": "0303", "b2": "0305", "r1": "0403", "r2": "0503", "r3": "0504", "r4": "0504"}
    state = fight(new_game(rout).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert "0404" in state.enemy_zoc("red")
    assert state.positions["r1"] == "0503"  # the only best hex: the retreat is made alone
    # Keeping only the first preference, both friendly stacks are left to the victor's choice.
    first_only = with_retreat(rout, prefer=rout.combat.retreat.prefer[:1])
    state = fight(new_game(first_only).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert retreat_ends(state) == {"0503", "0504"}


def test_a_retreat_never_ends_over_the_stacking_limit(rout):
    # Three red units fill 0504 (may_end = count(units_at(hex)) < 3): r1 may end only in the vacant 0503.
    place = {"b1": "0303", "r1": "0403", "r2": "0504", "r3": "0504", "r4": "0504"}
    no_preferences = with_retreat(rout, prefer=())
    state = fight(new_game(no_preferences).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert retreat_ends(state) == {"0404", "0503"}
    # Without may_end the full hex is a legal end too.
    state = fight(new_game(with_retreat(no_preferences, may_end=None)).arrange(place, phase="blue_fight"),
                  "0403", "b1", roll=D1)
    assert retreat_ends(state) == {"0404", "0503", "0504"}


def test_enemy_zoc_does_not_reach_into_a_friendly_hex_for_retreats(rout, tmp_path):
    # The same position under the default policy (no occupied hex, no enemy ZOC): r1 has nowhere to go.
    place = {"b1": "0303", "b2": "0305", "r1": "0403", "r2": "0503", "r3": "0504", "r4": "0504"}
    strict = game_with(tmp_path, "    may_enter = not enemy_occupied", "    may_not_enter = [occupied, enemy_zoc]\n    # ")
    assert strict.combat.retreat.may_enter is None
    state = fight(new_game(strict).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert state.status("r1") == "eliminated"


def test_units_retreat_one_at_a_time_strongest_first(rout):
    # r1 (1), r2 (3) and r3 (2) defend 0403 together and must all retreat.
    place = {"b1": "0303", "r1": "0403", "r2": "0403", "r3": "0403"}
    state = fight(new_game(rout).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert [f.unit for f in state.retreats] == ["r2", "r3", "r1"]
    assert retreat_ends(state) == {"0404", "0503", "0504"}
    state.apply_action(Action.retreat(("0404",)))
    # The next unit's preferences see the first one's retreat: 0404 is no longer vacant.
    assert state.retreats[0].unit == "r3" and retreat_ends(state) == {"0503", "0504"}
    state.apply_action(Action.retreat(("0503",)))
    assert state.positions["r1"] == "0504"  # the last vacant hex: made alone
    listed = fight(new_game(with_retreat(rout, order="listed")).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert [f.unit for f in listed.retreats] == ["r1", "r2", "r3"]


def test_the_attackers_advance_any_or_all_within_stacking(rout, tmp_path):
    place = {"b1": "0303", "b2": "0303", "b3": "0303", "r1": "0403"}
    state = fight(new_game(rout).arrange(place, phase="blue_fight"), "0403", "b1", "b2", "b3", roll=D1)
    state.apply_action(state.legal_actions()[0])  # r1's retreat
    for uid in ("b1", "b2"):
        assert Action.advance(uid, "0403") in state.legal_actions()
        state.apply_action(Action.advance(uid, "0403"))
    assert state.legal_actions() == [Action.advance("b3", "0403"), Action.advance()]
    state.apply_action(Action.advance("b3", "0403"))
    assert [state.positions[u] for u in ("b1", "b2", "b3")] == ["0403"] * 3
    # Stacking two to a hex: the third may not follow.
    two = game_with(tmp_path, "stacking { limit = 3 }", "stacking { limit = 2 }")
    state = fight(new_game(two).arrange(place, phase="blue_fight"), "0403", "b1", "b2", "b3", roll=D1)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(Action.advance("b1", "0403"))
    state.apply_action(Action.advance("b2", "0403"))
    assert state.advancing is None and state.positions["b3"] == "0303"


@pytest.mark.parametrize("roll", [A1, AE])
def test_the_defender_advances_into_the_hexes_the_attackers_vacated(rout, roll):
    place = {"b1": "0303", "b2": "0304", "r1": "0403", "r2": "0403"}
    state = fight(new_game(rout).arrange(place, phase="blue_fight"), "0403", "b1", "b2", roll=roll)
    while state.retreats:  # the defender retreats the beaten attackers
        state.apply_action(state.legal_actions()[0])
    assert state.advancing is not None and state.advancing.side == "red"
    assert set(state.advancing.hexes) == {"0303", "0304"}
    assert {a.unit for a in state.legal_actions()} == {"r1", "r2", None}
    state.apply_action(Action.advance("r1", "0303"))
    state.apply_action(Action.advance("r2", "0304"))
    assert state.positions["r1"] == "0303" and state.positions["r2"] == "0304"


def test_the_river_blocks_the_defenders_advance_only(rout):
    # b1 in 0604 attacks r1 across the river (0603/0604).
    place = {"b1": "0604", "r1": "0603"}
    beaten = fight(new_game(rout).arrange(place, phase="blue_fight"), "0603", "b1", roll=AE)
    assert beaten.status("b1") == "eliminated" and beaten.advancing is None  # red may not cross
    won = fight(new_game(rout).arrange(place, phase="blue_fight"), "0603", "b1", roll=D1)
    while won.retreats:
        won.apply_action(won.legal_actions()[0])
    assert won.advancing is not None and Action.advance("b1", "0603") in won.legal_actions()
    # The same battle fought from a hex across no river: red advances.
    dry = fight(new_game(rout).arrange({"b1": "0504", "r1": "0603"}, phase="blue_fight"), "0603", "b1", roll=AE)
    assert dry.advancing is not None and dry.legal_actions() == [Action.advance("r1", "0504"), Action.advance()]


def retreat_b3_into_b1s_hex(game, **more):
    """b3 attacks r2 from 0403 and is thrown back into 0303, where b1 stands (r4 bars the other ways)."""
    place = {"b1": "0303", "b3": "0403", "r1": "0302", "r2": "0503", "r4": "0305", **more}
    state = fight(new_game(game).arrange(place, phase="blue_fight"), "0503", "b3", roll=A1)
    assert state.positions["b3"] == "0303"
    state.apply_action(Action.advance())  # red stays
    return state


def test_a_retreated_unit_shares_the_fate_of_the_attackers_it_retreated_into(rout):
    state = fight(retreat_b3_into_b1s_hex(rout), "0302", "b1", roll=AE)
    assert state.status("b1") == "eliminated" and state.status("b3") == "eliminated"
    state = fight(retreat_b3_into_b1s_hex(rout), "0302", "b1", roll=A1)
    # b3 retreats again with its host (each has one way back: made alone), so the hex is vacated.
    assert state.positions["b3"] == state.positions["b1"] != "0303"
    assert state.advancing is not None and state.advancing.hexes == ("0303",)


def test_a_unit_sharing_the_attackers_fate_is_marked_with_them(tmp_path):
    # A variant in which any unit of strength 4 shares the fate of attackers it stands with: b2 does not
    # attack, yet retreats and is disrupted with b1 after an A1.
    old = "share_fate = retreated(unit) and all(f in units_at(unit.hex) where f == unit or f in attackers or retreated(f))"
    game = game_with(tmp_path, old, "share_fate = unit.strength == 4")
    place = {"b1": "0303", "b2": "0303", "r1": "0302"}
    state = fight(new_game(game).arrange(place, phase="blue_fight"), "0302", "b1", roll=A1)
    while state.retreats:
        state.apply_action(state.legal_actions()[0])
    assert state.positions["b1"] != "0303" and state.positions["b2"] != "0303"
    assert state.markers_on("b1") == state.markers_on("b2") == ("disrupted",)


def test_a_host_that_did_not_attack_shelters_the_retreated_unit(rout):
    # b2 stands in 0303 too and does not attack: b3 is not struck, nor is b2.
    state = fight(retreat_b3_into_b1s_hex(rout, b2="0303"), "0302", "b1", roll=AE)
    assert state.status("b1") == "eliminated"
    assert state.positions["b3"] == "0303" and state.positions["b2"] == "0303"
    # Without share_fate nobody but the attackers suffers.
    alone = replace(rout, combat=replace(rout.combat, share_fate=None))
    state = fight(retreat_b3_into_b1s_hex(alone), "0302", "b1", roll=AE)
    assert state.status("b1") == "eliminated" and state.positions["b3"] == "0303"


def test_a_retreated_unit_adds_no_strength_to_its_hosts(rout):
    # r1 retreats into r2's hex (0503); b3 in 0603 then attacks that hex: only r2's strength defends.
    place = {"b1": "0303", "b2": "0305", "b3": "0603", "r1": "0403", "r2": "0503", "r3": "0504", "r4": "0504"}
    state = fight(new_game(rout).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert state.positions["r1"] == "0503"
    state.apply_action(Action.advance())
    odds = state.odds(Action.attack("0503", ("b3",)))
    assert odds.defence == rout.units["r2"].strength and "retreated" in odds.modifiers
    fresh = new_game(rout).arrange({"b3": "0603", "r1": "0503", "r2": "0503"}, phase="blue_fight")
    assert fresh.odds(Action.attack("0503", ("b3",))).defence == rout.units["r1"].strength + rout.units["r2"].strength


@pytest.mark.parametrize("hexes", [2, 3])
def test_a_retreat_toward_an_edge_comes_nearer_it_every_hex(rout, hexes):
    from rulec.engine.tables import tables_for
    from rulec.runtime.model import Effect

    toward = with_retreat(rout, direction="toward_edge", edges={"blue": "west", "red": "east"}, prefer=())
    toward = replace(toward, results={**toward.results, "D1": replace(toward.results["D1"],
                                                                      effects=(Effect("retreat", "defender", hexes),))})
    state = fight(new_game(toward).arrange({"b1": "0203", "r1": "0303"}, phase="blue_fight"), "0303", "b1", roll=D1)
    distance = tables_for(toward).distance
    east = toward.map.edges["east"]

    def to_edge(h):
        return min(distance[h][e] for e in east)

    paths = {a.path for a in state.legal_actions()}
    assert paths and all(len(p) == hexes for p in paths)
    for path in paths:
        steps = [to_edge(h) for h in ("0303",) + path]
        assert steps == list(range(steps[0], steps[0] - hexes - 1, -1))  # one hex nearer the edge each step


def test_random_games_keep_every_promise(rout):
    from rulec.engine.conformance import check_game

    assert check_game(rout, n_games=200, seed=5) == []


def test_the_compiled_module_retreats_the_same_and_type_checks(tmp_path):
    import sys

    from rulec.cli.main import main as rulec_main
    from rulec.pipeline import load_compiled

    assert rulec_main(["compile", str(GAMES / "rout.rulec"), "--out", str(tmp_path)]) == 0
    compiled = load_compiled(tmp_path / "rout.py")
    place = {"b1": "0303", "b2": "0305", "r1": "0403", "r2": "0503", "r3": "0504", "r4": "0504"}
    state = fight(new_game(compiled).arrange(place, phase="blue_fight"), "0403", "b1", roll=D1)
    assert state.positions["r1"] == "0503"  # the fewest units, as the game loaded from text decides
    api = pytest.importorskip("mypy.api")
    limit = sys.getrecursionlimit()
    try:
        out, err, status = api.run(["--strict", "--follow-imports=silent", "--no-incremental", "--no-error-summary",
                                    str(tmp_path / "rout.py")])
    finally:
        sys.setrecursionlimit(limit)  # mypy raises it for the whole process
    assert status == 0, out + err
